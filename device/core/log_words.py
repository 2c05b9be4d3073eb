"""The battle log's words, in English and Polish: a template for every kind of line the box
writes to a battle's log (device/core/battle_log.py), and the words of the values only the log
names. `i18n` adds these to its strings.

A template's values are named as the rules name them; the names in `battle_log.WORDED` are
words of the rules, said in the language's words ({side} is "Oś" in Polish), and the English
templates write them as the rules do ({side:key} is "axis"): the English log reads as the box
has always written it, and as the journal keeps it. Labels, card titles and the cells of the
owner's Cobra tables are names: as they are.
"""
from __future__ import annotations

LOG_WORDS: dict[str, tuple[str, str]] = {
    # the battle log
    # -- a line of one side, of the battle's end, of a Cobra game turn
    "log_side": ("{side:key} {line}", "{side}: {line}"),
    "log_won": ("{line}; {winner:key} win", "{line}; wygrywa: {winner}"),
    "log_game_turn": ("GT{turn} {line}", "T{turn} {line}"),
    # -- a battle's start, its rounds and its match
    "log_new_battle": ("new {level:key} battle: {pieces}", "nowa bitwa ({level}): {pieces}"),
    "log_new_match": ("new match, battle 1: {pieces}", "nowy mecz, bitwa 1: {pieces}"),
    "log_roster_piece": ("{name} ({side:key})", "{name} ({side})"),
    "log_roster_off_map": ("{name} off map ({side:key})", "{name} poza mapą ({side})"),
    "log_house_rules": ("house rules: {rules}", "zasady domowe: {rules}"),
    "log_house_rule": ("{rule}: {choice}", "{rule}: {choice}"),
    "log_initiative": ("round {round}: {side:key} has the initiative",
                       "runda {round}: inicjatywa – {side}"),
    "log_attacks": ("{attacker:key} attacks, {defender:key} defends",
                    "atakuje: {attacker}, broni: {defender}"),
    "log_match_battle": ("match battle {n}: the sides swap", "mecz, bitwa {n}: zamiana stron"),
    "log_gives_up": ("{side:key} gives up", "{side} się poddaje"),
    "log_passes": ("passes", "pasuje"),
    "log_ends_turn": ("ends the turn", "kończy turę"),
    # -- what a piece does
    "log_fires_at": ("{firer} fires at {target} ({facing:key}): {effect:key}",
                     "{firer} strzela do {target} ({facing}): {effect}"),
    "log_fires_weapon": ("{firer} fires {weapon:key} at {targets}: {down} of {of} down",
                         "{firer} strzela ({weapon}) do {targets}: padło {down} z {of}"),
    "log_fires_weapon_guns": ("{firer} fires {weapon:key} at {targets}: {down} of {of} down, "
                              "{guns:gun|guns} destroyed",
                              "{firer} strzela ({weapon}) do {targets}: padło {down} z {of}, "
                              "zniszczone działa: {guns}"),
    "log_fires_weapon_miss": ("{firer} fires {weapon:key} at {targets}: miss",
                              "{firer} strzela ({weapon}) do {targets}: pudło"),
    "log_reloaded": ("{label} reloads: reloaded", "{label} przeładowuje: załadowany"),
    "log_reload_failed": ("{label} reloads: unloaded", "{label} przeładowuje: niezaładowany"),
    "log_moves_up_to": ("{label} moves up to {cm} cm", "{label}: ruch do {cm} cm"),
    "log_moves": ("{label} moves", "{label}: ruch"),
    "log_hides": ("{label} hides", "{label} się ukrywa"),
    "log_takes_cover": ("{label} takes cover", "{label}: do osłony"),
    "log_gets_on": ("{label} gets on {vehicle}", "{label} wsiada: {vehicle}"),
    "log_gets_off": ("{label} gets off {vehicle}", "{label} zsiada: {vehicle}"),
    "log_leaves": ("{label} leaves the map for a new commander: back from the end of turn "
                   "{turn}",
                   "{label} zjeżdża z mapy po nowego dowódcę: wraca od końca tury {turn}"),
    "log_commander_out": ("{label}: commander out in the turret", "{label}: dowódca na wieży"),
    "log_commander_in": ("{label}: commander in", "{label}: dowódca w środku"),
    "log_runs_over": ("{tank} runs over {pieces}: rolled {rolled}, eliminated {eliminated}",
                      "{tank} rozjeżdża: {pieces}; rzutów {rolled}, padło {eliminated}"),
    "log_runs_over_guns": ("{tank} runs over {pieces}: rolled {rolled}, eliminated "
                           "{eliminated}, {guns:gun|guns} eliminated",
                           "{tank} rozjeżdża: {pieces}; rzutów {rolled}, padło {eliminated}, "
                           "zniszczone działa: {guns}"),
    "log_spotted": ("{label} is spotted", "{label} wykryty"),
    "log_spotted_by": ("{label} is spotted by {spotter}", "{label} wykryty przez: {spotter}"),
    "log_spotted_by_commander": ("{label} is spotted by {spotter}'s commander",
                                 "{label} wykryty przez dowódcę: {spotter}"),
    "log_starts_hidden": ("{label} starts hidden", "{label} ukryty od startu"),
    # -- activations and pieces coming on
    "log_activates": ("activates: {members}", "aktywacja: {members}"),
    "log_extra_activation": ("extra activation: {members}", "dodatkowa aktywacja: {members}"),
    "log_places": ("places {label} at its edge", "wystawia {label} przy swojej krawędzi"),
    "log_places_with": ("places {label} with {carrier} at its edge",
                        "wystawia {label} z {carrier} przy swojej krawędzi"),
    # -- what a shot did (Effect), as the log says it
    "effect_miss": ("miss", "pudło"),
    "effect_none": ("none", "bez efektu"),
    "effect_immobilized": ("immobilized", "unieruchomiony"),
    "effect_weakened": ("weakened", "osłabiony"),
    "effect_gun_destroyed": ("gun_destroyed", "stracił działo"),
    "effect_destroyed": ("destroyed", "zniszczony"),
    # -- a distance checked, a value of the Soft Targets Table remembered
    "log_distance": ("{question} {cm:g} cm · {sign} {threshold:g} cm: {call:key}",
                     "{question} {cm:g} cm · {sign} {threshold:g} cm: {call}"),
    "log_distance_measured": ("{question} {cm:g} cm ±{spread:g} · {sign} {threshold:g} cm: "
                              "{call:key}",
                              "{question} {cm:g} cm ±{spread:g} · {sign} {threshold:g} cm: "
                              "{call}"),
    "log_learned_range": ("Soft Targets Table: {weapon:key} value for {cm:g} cm {value:+d} "
                          "remembered for {low:g}-{high:g} cm",
                          "Tabela celów miękkich: {weapon}, {cm:g} cm: zapamiętano {value:+d} "
                          "dla {low:g}–{high:g} cm"),
    "log_learned_template": ("Soft Targets Table: template modifier for {weapon:key} "
                             "{value:+d} remembered",
                             "Tabela celów miękkich: szablon {weapon}: zapamiętano {value:+d}"),
    "log_learned_situation": ("Soft Targets Table: value for a target {situation} {value:+d} "
                              "remembered",
                              "Tabela celów miękkich: cel {situation}: zapamiętano {value:+d}"),
    # -- Cobra
    "log_cobra_start": ("{title}: game turns {first}-{last}", "{scenario}: tury {first}–{last}"),
    "log_cobra_phase": ("{nation:key} {phase:key}", "{nation}: {phase}"),
    "log_cobra_turn_end": ("end of game turn", "koniec tury"),
    "log_extension": ("campaign extension roll {die}: {result}",
                      "rzut na przedłużenie kampanii {die}: {result}"),
    "log_weather": ("weather {weather:key} ({how}); {supply}",
                    "pogoda: {weather} ({how}); {supply}"),
    "log_weather_roll": ("{column}: {die}{modifier:+d} = {modified}",
                         "{column}: {die}{modifier:+d} = {modified}"),
    "log_allied_supply": ("Allied supply: {note}", "zaopatrzenie Aliantów: {note}"),
    "log_attack": ("{nation:key} attack {odds}, die {die}: {result}",
                   "atak – {nation}: {odds}, kość {die}: {result}"),
    "log_overrun": ("{nation:key} overrun ({when:key}) {odds}, die {die}: {result}",
                    "przełamanie – {nation}, {when}: {odds}, kość {die}: {result}"),
    "log_odds": ("{attack}:{defence} → {base} {net:+d} → {column}",
                 "{attack}:{defence} → {base} {net:+d} → {column}"),
    "log_carpet_odds": ("carpet bombing 6:1", "nalot dywanowy 6:1"),
    "log_unsupplied": ("{line} (unsupplied)", "{line} (bez zaopatrzenia)"),
    "log_paid": ("{line}; {cost} SP {track:key}", "{line}; {cost} PZ, {track}"),
    "log_support": ("{line}; {air} AP, {naval} naval", "{line}; {air} PL, {naval} PM"),
    "log_carpet": ("carpet bombing 6:1, die {die}: defender {result}; {air} AP",
                   "nalot dywanowy 6:1, kość {die}: obrona {result}; {air} PL"),
    "log_air_attack": ("german MA +{increase}/3 ({ma}), air attack die {die}: {result}",
                       "Niemcy: PR +{increase}/3 ({ma}), nalot, kość {die}: {result}"),
    "log_replacement": ("{army:key} replacement step, {step_kind:key}",
                        "uzupełnienie {army}: stopień {step_kind}"),
    "log_replacement_vp": ("{line}; {note}", "{line} – {note}"),
    "log_track": ("track {track:key} {old} → {new}", "tor {track}: {old} → {new}"),
    "log_para_landed": ("paratroops {landing:key}: die {die}, no scatter",
                        "desant – {landing}: kość {die}, bez rozrzutu"),
    "log_para_scattered": ("paratroops {landing:key}: die {die}, scattered",
                           "desant – {landing}: kość {die}, rozrzut"),
    "log_para_direction": ("paratroops {landing:key}: scatter die {die}, {where}",
                           "desant – {landing}: kość rozrzutu {die}, {where}"),
    "log_direction": ("{direction:key}", "{direction}"),
    "log_read_diagram": ("read map B's diagram", "odczytaj wykres z planszy B"),
    "log_commit": ("beach defence die {die}: {result}", "obrona plaży, kość {die}: {result}"),
    "log_may_commit": ("may commit steps", "może skierować stopnie"),
    "log_no_commit": ("no steps", "bez stopni"),
    "log_attrition": ("landing attrition {landing:key} {start} → {column}, die {die}: {result}",
                      "straty desantu – {landing}: {start} → {column}, kość {die}: {result}"),
    "log_beach_check": ("{landing:key}: {lost} of {landed} steps lost, {result}",
                        "{landing}: stracone {lost} z {landed} stopni, {result}"),
    "log_abandoned": ("abandoned, German +10 VP", "opuszczona, Niemcy +10 PZw"),
    "log_held": ("held", "utrzymana"),
    "log_withdrawal": ("withdrawal attack 3:1, die {die}: {result}",
                       "atak na wycofywany oddział 3:1, kość {die}: {result}"),
    "log_track_us": ("us", "zaopatrzenie USA"),
    "log_track_british": ("british", "zaopatrzenie Brytyjczyków"),
    "log_track_german": ("german", "zaopatrzenie Niemców"),
    "log_track_german_vp": ("german_vp", "PZw Niemców"),
    "log_track_allied_vp": ("allied_vp", "PZw Aliantów"),
    "log_hqs": ("{line}; HQ {hqs}", "{line}; sztab {hqs}"),
    "log_hq": ("HQ {name} {hq_event:key}: {hq_state:key}", "sztab {name}: {hq_event}, {hq_state}"),
    "log_levels": ("command levels: US {us}, British {british}",
                   "poziomy dowodzenia: USA {us}, Bryt. {british}"),
    "log_vp": ("VP {vp_source:key} {vp:+d} {track:key}", "PZw: {vp_source} {vp:+d}, {track}"),
    "log_vp_undo": ("VP taken back: {vp_source:key} {vp:+d} {track:key}",
                    "PZw cofnięte: {vp_source} {vp:+d}, {track}"),
    "log_leclerc": ("Leclerc roll {die}: {result}", "rzut na Leclerca {die}: {result}"),
    "log_mutiny": ("mutiny, to Paris", "bunt, na Paryż"),
    "log_no_mutiny": ("no mutiny", "bez buntu"),
    "log_release": ("15th Army release roll {die}: {result}; German VP -1",
                    "rzut na zwolnienie 15. Armii {die}: {result}; PZw Niemców -1"),
    "log_released": ("{division}th Infantry Division released, {units} units",
                     "zwolniona {division}. Dywizja Piechoty, oddz. {units}"),
    "log_released_hq": ("{division}th Infantry Division and a corps HQ released, {units} "
                        "units",
                        "zwolniona {division}. Dywizja Piechoty i sztab korpusu, oddz. {units}"),
    "log_not_released": ("not released", "nie zwolniono"),
    "log_brest": ("Brest roll {die}{modifier:+d} = {modified}: {result}",
                  "rzut na Brest {die}{modifier:+d} = {modified}: {result}"),
    "log_fj_released": ("2nd FJ Division released", "2. Dywizja Spadochronowa zwolniona"),
}
