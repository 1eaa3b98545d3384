"""The pages of a language site, made from a validated KnowledgeBase: rendered pages, listings, search index, exports."""
