"""The companion device: for now the command line and the terminal session."""
