"""The box's spoken words, in English and Polish: a template for every kind of thing it says
(device/core/spoken.py cuts each at its values into phrases, rendered once into the voice's
cache), and the numbers as a child says them.

Written to be heard, not read: short sentences, the side or piece first, no abbreviations, no
rule numbers, and every value a name, a number or another template. Each fixed piece between
values is a phrase the voice renders on its own, so none is punctuation alone: a template ends
at its last value rather than with a full stop after it.

Polish adjectives agree with the piece's grammatical gender ("zniszczony", "zniszczona",
"zniszczone"): a card's [speech] table may give it (`gender`). `GENDERED` holds those forms;
the template in `SPEECH_WORDS` is the neutral form said when a card gives none (the name after
a colon, or a verb in the present tense, which has no gender).
"""
from __future__ import annotations

NUMBERS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
           "eighteen", "nineteen", "twenty"),
    "pl": ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem",
           "dziewięć", "dziesięć", "jedenaście", "dwanaście", "trzynaście", "czternaście",
           "piętnaście", "szesnaście", "siedemnaście", "osiemnaście", "dziewiętnaście",
           "dwadzieścia"),
}

SPEECH_WORDS: dict[str, tuple[str, str]] = {
    # -- one thing said after another (an outcome and the winner)
    "say_and": ("{first} {then}", "{first} {then}"),
    # -- sides, as a child says them (the Tank Game's and Easy level's, and Cobra's players)
    "say_side_axis": ("Axis", "Oś"),
    "say_side_allies": ("Allies", "Alianci"),
    "say_side_german": ("Germans", "Niemcy"),
    "say_side_allied": ("Allies", "Alianci"),
    # -- saving stopped during play, or works again
    "say_cannot_save": ("The box cannot save. Play goes on.",
                        "Pudełko nie może zapisać. Gra toczy się dalej."),
    "say_saving_again": ("Saving works again.", "Zapis znowu działa."),
    # -- a shot at a piece
    "say_hit": ("{firer} hits!", "{firer} trafia!"),
    "say_hit_effect": ("{firer} hits! {effect}", "{firer} trafia! {effect}"),
    "say_miss": ("{firer} misses.", "{firer} pudłuje."),
    "say_destroyed": ("{target} is destroyed.", "Zniszczono: {target}"),
    "say_weakened": ("{target} is weakened.", "Osłabiono: {target}"),
    "say_immobilized": ("{target} cannot move.", "Unieruchomiono: {target}"),
    "say_gun_destroyed": ("{target} loses its gun.", "{target} traci działo."),
    "say_no_effect": ("{target}: no effect.", "{target}: bez skutku."),
    # -- weapons fired at figures, a tank running over them, a reload
    "say_down": ("{firer} fires: {down} of {of} down.",
                 "{firer} strzela. Trafione: {down} na {of}"),
    "say_guns_destroyed": ("Guns destroyed: {guns}", "Zniszczone działa: {guns}"),
    "say_runs_over": ("{tank} runs over: {down} down.",
                      "{tank} rozjeżdża. Wyeliminowano: {down}"),
    "say_reloaded": ("{label} reloads.", "{label} przeładowuje."),
    "say_unloaded": ("{label} fails to reload.", "{label} nie przeładowuje."),
    "say_must_reload": ("{label} must reload.", "{label} musi przeładować."),
    # -- who goes first, who wins
    "say_initiative": ("{side} go first.", "Pierwszy ruch: {side}"),
    "say_attacks": ("{attacker} attack. {defender} defend.",
                    "Atakują: {attacker}. Bronią się: {defender}"),
    "say_wins": ("{side} win!", "{side}: zwycięstwo!"),
    # -- Cobra: a combat's result from the owner's table, in words
    "say_attack": ("Attack! {result}", "Atak! {result}"),
    "say_overrun": ("Overrun! {result}", "Przełamanie! {result}"),
    "say_withdrawal": ("Withdrawal attack! {result}",
                       "Atak na wycofanie! {result}"),
    "say_carpet": ("Carpet bombing! {result}", "Nalot dywanowy! {result}"),
    "say_defender": ("Defender: {loss}", "Obrońca: {loss}"),
    "say_crt": ("Attacker: {attacker}. Defender: {defender}",
                "Atakujący: {attacker}. Obrońca: {defender}"),
    "say_read_table": ("Read the result on your table.", "Odczytaj wynik z tabeli."),
    "say_loss_none": ("no loss", "bez strat"),
    "say_loss_all": ("all lost", "wszystko stracone"),
    "say_loss_steps": ("loses {steps}", "traci {steps}"),
    # -- Cobra: the weather, the special rolls, the landing, victory points
    "say_weather": ("Weather: {weather}", "Pogoda: {weather}"),
    "say_weather_clear": ("clear", "bezchmurnie"),
    "say_weather_overcast": ("cloudy", "pochmurno"),
    "say_weather_storm": ("storm", "burza"),
    "say_one_more_turn": ("One more turn.", "Jeszcze jedna tura."),
    "say_game_ends": ("The game ends.", "Koniec gry."),
    "say_air_attack_lost": ("Air attack: a step is lost.", "Nalot: stracony stopień."),
    "say_air_attack_safe": ("Air attack: no loss.", "Nalot: bez strat."),
    "say_para_landed": ("Paratroops land on target.", "Spadochroniarze lądują celnie."),
    "say_para_scattered": ("Paratroops scatter.", "Spadochroniarze rozrzuceni."),
    "say_beach": ("Beach: {result} Steps lost: {lost} of {landed}",
                  "Plaża: {result} Stracone stopnie: {lost} na {landed}"),
    "say_beach_held": ("The beach is held.", "Plaża utrzymana."),
    "say_beach_abandoned": ("The beach is abandoned.", "Plaża opuszczona."),
    "say_mutiny": ("Mutiny! Leclerc goes to Paris.", "Bunt! Leclerc rusza na Paryż."),
    "say_no_mutiny": ("No mutiny.", "Bez buntu."),
    "say_released": ("Germans: reinforcements released.", "Niemcy: posiłki zwolnione."),
    "say_not_released": ("Germans: nothing released.", "Niemcy: nic nie zwolniono."),
    "say_vp_gained": ("{side} gain {vp} victory points.",
                      "{side}: punkty zwycięstwa, plus {vp}"),
    "say_vp_lost": ("{side} lose {vp} victory points.",
                    "{side}: punkty zwycięstwa, minus {vp}"),
    "say_vp_gained_one": ("{side} gain one victory point.",
                          "{side}: punkt zwycięstwa, plus jeden"),
    "say_vp_lost_one": ("{side} lose one victory point.",
                        "{side}: punkt zwycięstwa, minus jeden"),
    # -- prompts: whose button, for what; whose turn
    "say_press": ("{side}: press your button.", "{side}: wciśnij przycisk."),
    "say_press_fire": ("{side}: press your button to fire.",
                       "{side}: wciśnij przycisk, żeby strzelić."),
    "say_press_armour": ("{side}: press your button for armour.",
                         "{side}: wciśnij przycisk na pancerz."),
    "say_press_reload": ("{side}: press your button to reload.",
                         "{side}: wciśnij przycisk, żeby przeładować."),
    "say_press_defend": ("{side}: press your button to defend.",
                         "{side}: wciśnij przycisk na obronę."),
    "say_press_damage": ("{side}: press your button for damage.",
                         "{side}: wciśnij przycisk na obrażenia."),
    "say_press_attack": ("{side}: press your button to attack.",
                         "{side}: wciśnij przycisk na atak."),
    "say_press_roll": ("{side}: press your button to roll.",
                       "{side}: wciśnij przycisk, żeby rzucić."),
    "say_press_both": ("Both: press your buttons.", "Gracze: wciśnijcie przyciski."),
    "say_press_tie": ("A tie! Both: press again.", "Remis! Gracze: jeszcze raz."),
    "say_turn": ("{side}: your turn.", "{side}: twoja kolej."),
}

# Polish forms by the grammatical gender of a named piece (m, f, n), where the card gives it:
# the template's key -> (the value that names the piece, its forms).
GENDERS = ("m", "f", "n")
GENDERED: dict[str, tuple[str, dict[str, str]]] = {
    "say_destroyed": ("target", {"m": "{target} zniszczony.", "f": "{target} zniszczona.",
                                 "n": "{target} zniszczone."}),
    "say_weakened": ("target", {"m": "{target} osłabiony.", "f": "{target} osłabiona.",
                                "n": "{target} osłabione."}),
    "say_immobilized": ("target", {"m": "{target} unieruchomiony.",
                                   "f": "{target} unieruchomiona.",
                                   "n": "{target} unieruchomione."}),
}
