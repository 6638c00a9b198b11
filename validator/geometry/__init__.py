"""Where things are: the hex grid across joined boards (hexgrid) and the one reading of a location, a
range, an area or "within N of" (locations)."""
