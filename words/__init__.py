"""The box's words: one gettext catalogue per language (locale/), the registry of the languages
(languages.py), and the grammar that fills a template (grammar.py). Nothing here draws,
plays or speaks: the box asks for a key's text in a language and gets it."""
