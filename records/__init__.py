"""The domain's nouns, shared by every layer from a config to the statistics and the pages
(docs/design.md, "The domain's nouns"). Each is parsed from and printed to its JSON or YAML form
here and nowhere else; this package imports no other, so the arrows between packages run one way.
"""
