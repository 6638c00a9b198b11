"""hexforge validator: source model, schemas, hex geometry and cross-checks (never imports compiler)."""
