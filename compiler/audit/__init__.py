"""`hexforge audit`'s parts, one job each: what a run audits with (`setup`), reading a log of any kind
(`read`), one log's audit (`task`), running the logs in one process or several (`running`), the chain of
logs (`chain`), the report folder's pages (`report`) and one renderer per output format (`render_text`,
`render_json`, `render_sarif`). The command itself is `compiler/cli_audit.py`."""
