"""The command line: thin Typer commands, one module per group of commands."""
