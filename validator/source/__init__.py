"""The source model and its loading: a game tree's YAML files read (yamlsrc, located), checked against
their schemas (schemas, compiled), patched by their errata (errata) and built by one reader per file kind
(readers, loader) into the typed, immutable model (model, frozen) everything downstream reads."""
