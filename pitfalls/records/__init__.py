"""The records: read the YAML content, check it against the schema and the rules across records, and build the typed model."""
