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
    return [text(language, key) for key in OUTCOMES] + [
        text(language, "WINS", side=side) for side in sides]
