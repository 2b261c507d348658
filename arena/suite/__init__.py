"""Test suites: positions from played games whose one right column an exact search proves."""
