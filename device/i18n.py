"""Every word the box shows, in English and Polish."""
from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    # sides and levels
    "axis": ("Axis", "Oś"),
    "allies": ("Allies", "Alianci"),
    "easy": ("Easy", "Łatwy"),
    "tank": ("Tank Game", "Gra czołgowa"),
    # outcome words
    "HIT": ("HIT", "TRAFIONY"),
    "MISS": ("MISS", "PUDŁO"),
    "DESTROYED": ("DESTROYED", "ZNISZCZONY"),
    "WEAKENED": ("WEAKENED", "OSŁABIONY"),
    "GUN LOST": ("GUN LOST", "BEZ DZIAŁA"),
    "IMMOBILIZED": ("IMMOBILIZED", "UNIERUCHOMIONY"),
    "NO EFFECT": ("NO EFFECT", "BEZ EFEKTU"),
    "RELOADED": ("RELOADED", "ZAŁADOWANY"),
    "UNLOADED": ("UNLOADED", "NIEZAŁADOWANY"),
    "WINS": ("{side} WIN!", "WYGRYWA: {side}"),
    # status marks
    "unloaded": ("unloaded", "niezaładowany"),
    "weakened": ("weakened", "osłabiony"),
    "gun_destroyed": ("gun lost", "bez działa"),
    "immobilized": ("immobilized", "unieruchomiony"),
    "destroyed": ("destroyed", "zniszczony"),
    "ready": ("ready", "gotowy"),
    # menus
    "start": ("COBI Companion", "COBI Companion"),
    "resume": ("Resume battle", "Wznów bitwę"),
    "new": ("New battle", "Nowa bitwa"),
    "quick_dice": ("Quick dice", "Szybkie kości"),
    "settings": ("Settings", "Ustawienia"),
    "dice_stats": ("Dice fairness", "Uczciwość kości"),
    "rules": ("Rules", "Zasady"),
    "roster": ("Roster", "Skład"),
    "roster_hint": ("button = add · OK = done", "przycisk = dodaj · OK"),
    "roster_need": ("Each side needs a vehicle", "Każda strona potrzebuje pojazdu"),
    "ok_choose": ("OK = choose", "OK = wybierz"),
    "ok_next": ("OK = next", "OK = dalej"),
    "menu": ("Menu", "Menu"),
    "back_to_game": ("Back to battle", "Wróć do bitwy"),
    "status_board": ("Status board", "Stan pojazdów"),
    "battle_log": ("Battle log", "Dziennik bitwy"),
    "end_battle": ("End battle", "Zakończ bitwę"),
    "initiative": ("Initiative", "Inicjatywa"),
    "both_press": ("Both: press your button", "Obaj: wciśnijcie przycisk"),
    "pressed": ("rolled", "rzucono"),
    "tie": ("Tie: roll again", "Remis: rzuć ponownie"),
    "starts": ("{side} starts", "Zaczyna: {side}"),
    "attacker_roll": ("Who attacks?", "Kto atakuje?"),
    "defender_first": ("{side} defends: moves first", "Broni: {side}, zaczyna"),
    "round": ("Round", "Runda"),
    "pick_vehicle": ("Which vehicle?", "Który pojazd?"),
    "pass": ("Pass", "Pas"),
    "fire": ("Fire", "Ogień"),
    "move": ("Move", "Ruch"),
    "reload": ("Reload", "Przeładuj"),
    "target": ("Target", "Cel"),
    "facing": ("Armour hit", "Trafiony pancerz"),
    "front": ("front", "przód"),
    "side": ("side", "bok"),
    "rear": ("rear", "tył"),
    "top": ("top", "góra"),
    "hull_down": ("Hull down?", "Za osłoną?"),
    "over_100": ("Over 100 cm?", "Ponad 100 cm?"),
    "yes": ("yes", "tak"),
    "no": ("no", "nie"),
    "odds": ("hit {hit} · kill {kill}", "trafienie {hit} · zniszcz. {kill}"),
    "press_to_fire": ("{side}: press to fire", "{side}: wciśnij, by strzelić"),
    "press_armour": ("{side}: press for armour", "{side}: wciśnij – pancerz"),
    "press_reload": ("{side}: press to reload", "{side}: wciśnij – ładuj"),
    "to_hit": ("To hit", "Trafienie"),
    "reload_roll": ("Reload", "Przeładowanie"),
    "damage": ("Damage", "Obrażenia"),
    "armour": ("Armour", "Pancerz"),
    "needs": ("needs {n}+", "trzeba {n}+"),
    "needs_range": ("needs {r}", "trzeba {r}"),
    "reverse": ("Backward?", "Do tyłu?"),
    "turns": ("Turns of 45°", "Skręty o 45°"),
    "rough": ("Rough ground?", "Trudny teren?"),
    "road": ("All on road?", "Całość po drodze?"),
    "move_up_to": ("move up to {cm} cm", "ruch do {cm} cm"),
    "dial_face": ("Dial your die", "Ustaw wynik kości"),
    "real_dice": ("Real dice", "Prawdziwe kości"),
    "sound": ("Sound", "Dźwięk"),
    "language": ("Language", "Język"),
    "brightness": ("Brightness", "Jasność"),
    "on": ("on", "wł."),
    "off": ("off", "wył."),
    "this_battle": ("this battle", "ta bitwa"),
    "overall": ("overall", "łącznie"),
    "not_possible": ("Not possible", "Niemożliwe"),
    "cannot_save": ("Cannot save!", "Nie można zapisać!"),
    "no_targets": ("No target left", "Brak celów"),
    "game_over": ("Game over", "Koniec gry"),
    "quick_hint": ("button = D6 · hold = D6+", "przycisk = k6 · trzymaj = k6+"),
    "goodbye": ("Goodbye!", "Do zobaczenia!"),
    # distances
    "check_distance": ("Check distance", "Sprawdź odległość"),
    "how_measure": ("Measure how?", "Jak zmierzyć?"),
    "measure_with": ("Measure: {sensor}", "Zmierz: {sensor}"),
    "enter_cm": ("Enter cm", "Wpisz cm"),
    "dial_cm_hint": ("turn · OK", "obróć · OK"),
    "measuring": ("Measuring", "Pomiar"),
    "measuring_word": ("…", "…"),
    "no_measurement": ("No measurement", "Brak pomiaru"),
    "sensor_lost": ("Sensor lost", "Czujnik odłączony"),
    "enter_instead": ("Use the tape and enter cm", "Zmierz taśmą i wpisz cm"),
    "call_yes": ("YES", "TAK"),
    "call_no": ("NO", "NIE"),
    "call_too_close": ("TOO CLOSE TO CALL", "NIE WIADOMO"),
    "q_fire_range": ("Over 100 cm?", "Ponad 100 cm?"),
    "q_spotting": ("Spotted (30 cm)?", "Wykryty (30 cm)?"),
    "q_spotting_binoculars": ("Spotted, binoculars (40 cm)?", "Wykryty, lornetka (40 cm)?"),
    "q_setup_attacker_edge": ("Attacker ≤ 40 cm from edge?", "Atak ≤ 40 cm od krawędzi?"),
    "q_setup_defender_from_attackers": ("Defender ≥ 30 cm from attackers?",
                                        "Obrona ≥ 30 cm od atakujących?"),
    "q_setup_defender_from_edge": ("Defender ≥ 40 cm from edge?", "Obrona ≥ 40 cm od krawędzi?"),
    "why_no_echo": ("no echo: aim at a flat card", "brak echa: celuj w płaską kartkę"),
    "why_too_close": ("too close for the sensor", "za blisko dla czujnika"),
    "why_out_of_range": ("beyond the sensor's range", "poza zasięgiem czujnika"),
    "why_weak_signal": ("weak signal: aim at a flat card", "słaby sygnał: celuj w kartkę"),
    "why_saturated": ("too much light or reflection", "za dużo światła lub odbicia"),
    "why_checksum_error": ("garbled frames: check wiring", "błędne ramki: sprawdź kable"),
    "why_invalid": ("readings make no sense", "odczyty bez sensu"),
    "why_no_reply": ("the sensor did not answer", "czujnik nie odpowiada"),
    "why_disconnected": ("the sensor is unplugged", "czujnik odłączony"),
}


def text(language: str, key: str, **values: object) -> str:
    """The string for `key` in the language ("en" or "pl"), with {values} filled in."""
    english, polish = STRINGS[key]
    chosen = polish if language == "pl" else english
    return chosen.format(**values) if values else chosen


OUTCOMES = ("HIT", "MISS", "DESTROYED", "WEAKENED", "GUN LOST", "IMMOBILIZED", "NO EFFECT",
            "RELOADED", "UNLOADED")


def every_text(language: str) -> list[str]:
    """Every string of the language, placeholders and all: the letters the box can show."""
    return [text(language, key) for key in STRINGS]


def outcome_words(language: str) -> list[str]:
    """The big words of the outcome screens, the winners' included."""
    sides = [text(language, side).upper() for side in ("axis", "allies")]
    calls = ("call_yes", "call_no", "call_too_close")
    return [text(language, key) for key in (*OUTCOMES, *calls)] + [
        text(language, "WINS", side=side) for side in sides]
