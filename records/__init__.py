"""The domain's nouns (docs/design.md, "The domain's nouns"), each parsed and printed here only;
this package imports no other, so the arrows between packages run one way."""
