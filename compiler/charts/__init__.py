"""Printable charts: counter sheets, player aids, set-up cards (see `build.build_charts`)."""
