"""VASSAL 3.7 module writer and reader.

- ``build.build_module(game, out_dir, progress=None, warnings=None)``: the .vmod (entry point).
- ``buildfile``: buildFile.xml (lxml); ``pieces``/``traits``: piece definitions and prototypes;
  ``setup``: where each scenario's pieces go; ``savegame``: the .vsav set-ups; ``boxes``: the
  Reinforcements board; ``charts``: table images; ``encoding``: SequenceEncoder, command streams,
  save obfuscation.
- ``reader``: open a .vmod/.vsav safely and decode it; ``gridrule``: VASSAL's pixel -> hex-name rule.

Every format detail was read from VASSAL's source (github vassalengine/vassal, tag 3.7.9).
"""
