"""避雷 Pitfall Guide: load, validate and render pitfall records (load → validate → render → index)."""
