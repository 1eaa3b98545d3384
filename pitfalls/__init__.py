"""避雷 Pitfall Guide: records → pages → commands.

- `records`: read, check and model the content (YAML → validated KnowledgeBase).
- `pages`: turn a KnowledgeBase into a language site's pages, listings, search index and exports.
- `commands`: the command line and the build/serve driver.
- leaves: `settings` (paths and settings), `text` (text analysis), `git`.

Imports point one way: commands → pages → records → leaves (docs/ARCHITECTURE.md).
"""
