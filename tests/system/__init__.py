"""Tests of the program as a whole and of outside programs: packaging, start-up, the import
graph, the docs, the benchmark, the languages, and the attack and fuzzing of every door."""
