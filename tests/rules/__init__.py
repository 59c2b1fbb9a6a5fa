"""Tests of the rules (chouette/, pure): one file per module, or per house rule by its name;
no ledger, no command, no clock. The fastest tier."""
