"""The UI kit: widgets, the renderer, text formats.

It imports core and ports."""
