"""VASSAL 3.7 module writer and reader.

- ``build.build_module(game, out_dir, progress=None, warnings=None)``: the .vmod (entry point).
- ``buildfile``: buildFile.xml (lxml); ``pieces``/``traits``: piece definitions and prototypes;
  ``setup``: where each scenario's pieces go; ``savegame``: the .vsav set-ups; ``boxes``: the
  Reinforcements board; ``charts``: table images; ``encoding``: SequenceEncoder, command streams,
  save obfuscation.
- ``reader``: open a .vmod/.vsav safely and decode it (``archive``: the bounded zip reader);
  ``gridrule``: VASSAL's pixel -> hex-name rule.
- ``vlog.read_log``: a .vlog/.vsav as the game record (validator.records.record); ``logstream``: its command
  stream (de-obfuscation, top-level tokens, each step's commands), streamed and bounded.

Every format detail was read from VASSAL's source (github vassalengine/vassal, tag 3.7.9).
"""
