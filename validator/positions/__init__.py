"""Which counters stand where: the `Position` value (position), what may share a hex (stacking: the one
reading of a counter's side, stack size, mixing) and a scenario's starting position (scenario_position),
shared by the set-up checks, the module's set-ups and the referee."""
