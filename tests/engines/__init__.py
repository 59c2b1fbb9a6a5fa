"""Tests of the engine file readers (chouette/engines) and the corpus of real exports: each
file read as its engine scored it, or refused by line, whatever door it came through."""
