"""Tests of the command line (cli.py): each command's words, exit codes, JSON, help, echoes
and bounds, colour and local times, the table's prompt; one *_cli file per rule or command."""
