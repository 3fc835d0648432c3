"""Bolt Action rosters the event tests submit: a legal German list, one over 500 points, a British one."""

GERMAN = """
format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1944: Normandy (Armies of Germany)"
organisation: Reinforced Platoon
name: {name}
units:
  - {{unit: germany-leutnant-second-lieutenant, quality: Regular}}
  - {{unit: germany-heer-grenadier-squad, quality: Regular, size: 10, options: [LMG, NCO SMG]}}
  - {{unit: germany-heer-grenadier-squad-2, quality: Regular, size: 10, options: [LMG, NCO SMG]}}
  - {{unit: germany-medium-machine-gun-team, quality: Regular}}
  - {{unit: germany-medium-mortar-team, quality: Regular}}
"""
GERMAN_POINTS = 396  # 5 order dice
PANZER = "  - {unit: germany-panzer-iv-ausf-g-h-j, quality: Regular}\n"  # 235 points: 631 in all
BRITISH = """
format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: great-britain-1944-normandy
name: {name}
units:
  - {{unit: great-britain-second-lieutenant, quality: Regular}}
  - {{unit: Infantry Section (Late-War), quality: Regular, size: 10}}
  - {{unit: Infantry Section (Late-War), label: 2nd Section, quality: Regular, size: 10}}
"""


def german(name="Kampfgruppe", panzer=False) -> str:
    return GERMAN.format(name=name) + (PANZER if panzer else "")


def british(name="Tommies") -> str:
    return BRITISH.format(name=name)
