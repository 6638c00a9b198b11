"""Game records: what happened in a played game in the tree's terms (record), its YAML form (record_yaml),
a step's text (record_text) and the bounds every reader holds a record to (record_limits)."""
