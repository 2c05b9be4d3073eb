"""The box's words for what the rules give as typed values, in English and Polish: card fields,
weapons, actions and the other words a refusal names, the dice a rule asks for, chances and
counts, the Cobra rules' notes. `i18n` adds these to its strings; `reasons` and the screens put
them in sentences.

Numbers are written the way each language writes them: `Number` gives a decimal comma in
Polish and picks the plural form a template asks for, like {n:figure|figures} or
{n:figurka|figurki|figurek}.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WORDS: dict[str, tuple[str, str]] = {
    # the language itself, as the settings show it
    "lang_en": ("English", "English"),
    "lang_pl": ("Polski", "Polski"),
    # the fields of an info card, as printed (English) and in the Polish rules' words
    "field_move_forward": ("Move Forward", "Ruch do przodu"),
    "field_move_backward": ("Move Backward", "Ruch do tyłu"),
    "field_turn_45": ("Turn 45 up to degrees", "Skręt do 45°"),
    "field_rough": ("Move in Rough", "Ruch w trudnym terenie"),
    "field_road": ("Only on Road", "Tylko po drodze"),
    "field_gun_to_hit": ("Gun to Hit", "Wartość Trafienia"),
    "field_reload": ("Reload die Roll", "Rzut na przeładowanie"),
    "field_damage": ("Damage / Number of Damage dice", "Siła Strzału / liczba kości"),
    "field_he_modifier": ("Damage HE Modifier (HE Template)",
                          "Modyfikator HE (szablon HE)"),
    "field_armour_front": ("Front armor", "Pancerz przedni"),
    "field_armour_side": ("Side armor", "Pancerz boczny"),
    "field_armour_rear": ("Rear armor", "Pancerz tylny"),
    "field_armour_top": ("Top armor", "Pancerz górny"),
    "field_destroy": ("Damage to Destroy Target", "Uszkodzenia niszczące cel"),
    "field_destroy_gun": ("Damage to Destroy Gun", "Uszkodzenia niszczące działo"),
    "field_weaken": ("Damage to Weaken Target", "Uszkodzenia osłabiające cel"),
    "field_immobilize": ("Damage to Immobilize Target", "Uszkodzenia unieruchamiające cel"),
    "field_crew": ("Crew", "Załoga"),
    "field_cost": ("Cost", "Koszt"),
    "field_available": ("Available", "Dostępny od"),
    "field_special_rules": ("Special rules", "Zasady specjalne"),
    # weapons by their name on the cards and in the Soft Targets Table (lower case); a name
    # not here is shown as the card writes it
    "weapon_he": ("shell", "pocisk"),
    "weapon_rifle": ("rifle", "karabin"),
    "weapon_pistol": ("pistol", "pistolet"),
    "weapon_medium mg": ("machine gun", "karabin maszynowy"),
    "weapon_grenade": ("grenade", "granat"),
    # what a piece has already done, as a refusal names it (English) or as its button does
    "action_move": ("moved", "Ruch"),
    "action_fire": ("fired", "Ogień"),
    "action_hide": ("hidden", "Ukryj"),
    "action_take_cover": ("taken cover", "Do osłony"),
    "action_reload": ("reloaded", "Przeładuj"),
    "action_leave": ("left the map", "Zjedź z mapy"),
    "kind_vehicle": ("vehicle", "pojazd"),
    "kind_gun": ("gun", "działo"),
    # the distances a refusal names
    "quantity_offset": ("sensor offset", "przesunięcie czujnika"),
    "quantity_reading": ("reading", "odczyt"),
    "quantity_threshold": ("threshold", "próg"),
    "quantity_margin": ("margin", "margines"),
    "quantity_distance": ("distance", "odległość"),
    "quantity_range": ("range", "odległość strzału"),
    # Cobra's words in refusals
    "role_attack": ("attack", "atak"),
    "role_defence": ("defence", "obrona"),
    "shiftkind_terrain": ("terrain", "teren"),
    "shiftkind_hq": ("HQ", "sztab"),
    "shiftkind_patton": ("Patton", "Patton"),
    "shiftkind_tiger": ("Tiger", "Tygrysy"),
    "shiftkind_air": ("air", "lotnictwo"),
    "shiftkind_naval": ("naval", "marynarka"),
    "shiftkind_beach": ("beach", "plaża"),
    # the landing's beaches and paratroop divisions (17.3.2), shown on the panel too
    "landing_utah": ("Utah", "Utah"),
    "landing_omaha": ("Omaha", "Omaha"),
    "landing_gold": ("Gold", "Gold"),
    "landing_juno": ("Juno", "Juno"),
    "landing_sword": ("Sword", "Sword"),
    "landing_6th": ("6th Airborne", "6. Desantowa"),
    "landing_82nd": ("82nd Airborne", "82. Desantowa"),
    "landing_101st": ("101st Airborne", "101. Desantowa"),
    # the Scatter Diagram's directions (17.3.2 step 2c)
    "dir_north": ("north", "na północ"),
    "dir_northeast": ("northeast", "na północny wschód"),
    "dir_southeast": ("southeast", "na południowy wschód"),
    "dir_south": ("south", "na południe"),
    "dir_southwest": ("southwest", "na południowy zachód"),
    "dir_northwest": ("northwest", "na północny zachód"),
    "levelname_Marginal Allied": ("Marginal Allied", "niewielkie zwycięstwo Aliantów"),
    "levelname_Marginal German": ("Marginal German", "niewielkie zwycięstwo Niemców"),
    "none": ("none", "brak"),
    "and": ("and", "i"),
    # the dice a rule asks for, as the real-dice dial says them
    "need_damage_die": ("Damage die {n}", "Kość obrażeń {n}"),
    "need_damage_plus": ("Damage D6+", "Obrażenia k6+"),
    "need_armour_plus": ("Armour D6+", "Pancerz k6+"),
    "need_extra": ("D6+ after a 6", "k6+ po szóstce"),
    "need_attack": ("Attack: {target}", "Atak: {target}"),
    "need_defence": ("Defence: {target}", "Obrona: {target}"),
    "need_shot": ("{target}, shot {n}", "{target}, strzał {n}"),
    "need_overrun": ("{target}: 5-6 down", "{target}: 5-6 pada"),
    "need_initiative": ("{side}: initiative", "{side}: inicjatywa"),
    "need_weather": ("Weather", "Pogoda"),
    "need_combat": ("Combat", "Walka"),
    "need_air_attack": ("Air attack", "Nalot"),
    # the kinds of a Cobra replacement step (12.2)
    "stepkind_mech": ("mechanized", "zmechanizowany"),
    "stepkind_inf": ("infantry", "piechoty"),
    # dice, chances and counts
    "d6_plus": ("D6+", "k6+"),
    "versus": ("{attack} to {defence}", "{attack} : {defence}"),
    "in_six": ("{n} in 6", "{n} z 6"),
    # a chance in a child's words (device/ui/wording.py: CHANCES, the bands)
    "chance_none": ("no chance", "bez szans"),
    "chance_tiny": ("tiny chance", "mała szansa"),
    "chance_unlikely": ("unlikely", "słaba szansa"),
    "chance_even": ("50–50", "pół na pół"),
    "chance_likely": ("likely", "dobra szansa"),
    "chance_almost": ("almost sure", "prawie pewne"),
    "chance_sure": ("sure", "na pewno"),
    # dice added to a value, as a roll's step shows them: the D6+ of the rules, the Tank
    # Game's damage dice and the extra dice its sixes earn
    "plus_dice": ("{n} + dice", "{n} + kości"),
    "dice_n": ("{n} dice", "kości: {n}"),
    "dice_extra": ("{n} dice + {extra} more", "kości: {n} + {extra}"),
    # a roll with modifiers, as its step shows it: the die, the sum, and what it needs
    "needs_sum": ("{roll} {mods} = {total}: needs {n}+", "{roll} {mods} = {total}: trzeba {n}+"),
    "rolls_counted": ("{title}: {n} dice", "{title}: kości {n}"),
    # a hit on a damaged vehicle at the Easy level
    "any_hit_destroys": ("already damaged: one more hit destroys it",
                         "już uszkodzony: każde trafienie go niszczy"),
    # what went wrong with the saved battle (the system's own words where it says more)
    "store_moved": ("the saved battle could not be read and was moved to {path}: {detail}",
                    "zapisanej bitwy nie dało się odczytać, przeniesiono ją do {path}: "
                    "{detail}"),
    "store_cannot_save": ("cannot save: {why} ({path}); the battle goes on without saving",
                          "nie można zapisać: {why} ({path}); bitwa toczy się bez zapisu"),
    "store_saving_again": ("saving works again ({path})", "zapis znowu działa ({path})"),
    # saving stopped during play, or works again: a notice over the screen of the moment
    "saving_failed_text": ("The box cannot save now: {why}.",
                           "Pudełko nie może teraz zapisać: {why}."),
    "saving_goes_on": ("Play goes on. The box keeps trying to save. Do not pull the plug "
                       "until it says saving works again.",
                       "Gra toczy się dalej. Pudełko wciąż próbuje zapisać. Nie odłączaj "
                       "zasilania, dopóki nie powie, że zapis znowu działa."),
    "saving_again": ("Saving again", "Zapis działa"),
    "saving_again_text": ("Saving works again: the whole battle is saved.",
                          "Zapis znowu działa: cała bitwa jest zapisana."),
    # a saved battle that cannot be resumed now: it stays saved, with why
    "kept_battle": ("Saved battle", "Zapisana bitwa"),
    "kept_card": ("The saved battle needs the card {card}, which is not here now. Put its "
                  "stick or card file back, and the battle can go on.",
                  "Zapisana bitwa potrzebuje karty {card}, której teraz nie ma. Włóż z "
                  "powrotem jej pendrive lub plik karty, a bitwa będzie mogła trwać dalej."),
    "kept_format": ("The saved battle was written by another version of the box (save "
                    "format {format}). A box of that version can go on with it.",
                    "Zapisaną bitwę zapisała inna wersja pudełka (format zapisu {format}). "
                    "Pudełko w tamtej wersji może ją kontynuować."),
    "kept_unreadable": ("This box cannot read the saved battle: another version wrote it, "
                        "or it is damaged.",
                        "To pudełko nie umie odczytać zapisanej bitwy: zapisała ją inna "
                        "wersja albo jest uszkodzona."),
    "kept_stays": ("It stays saved until you put it away. A new battle would put it away.",
                   "Zostaje zapisana, dopóki jej nie usuniesz. Nowa bitwa by ją usunęła."),
    "keep_it": ("Keep it", "Zachowaj ją"),
    "put_away": ("Put it away", "Usuń ją"),
    "put_away_ask": ("Put the saved battle away for good?",
                     "Usunąć zapisaną bitwę na zawsze?"),
    "kept_new_ask": ("New game: put the saved battle away?",
                     "Nowa gra: usunąć zapisaną bitwę?"),
    "folder_read_only": ("the folder is read-only", "folder jest tylko do odczytu"),
    "folder_disk_full": ("the disk is full", "dysk jest pełny"),
    # Cobra: the game turn, and why the weather or the supply is what it is
    "game_turn": ("GT{n}", "T{n}"),
    "extension_detail": ("{die}: 4-6 = GT28", "{die}: 4-6 = T28"),
    "ma_full": ("full", "pełny"),
    "vp_score": ("VP {german} : {allied}", "PZw {german} : {allied}"),
    "carpet_column": ("carpet bombing is always resolved on 6:1, never shifted (14.3g)",
                      "nalot dywanowy zawsze rozstrzyga się na 6:1, bez przesunięć (14.3g)"),
}


def plural(value: float, forms: Sequence[str], language: str) -> str:
    """The form of a counted word for `value`: English one/other; Polish one, few (2-4,
    22-24, ...) and many, the forms of 1, 2 and 5 figurek."""
    if len(forms) == 1:
        return forms[0]
    if value == 1:
        return forms[0]
    if language != "pl" or len(forms) < 3:
        return forms[1]
    whole = int(value)
    if whole != value:
        return forms[1]               # 2,5 figurki: a fraction takes the few form
    if whole % 10 in (2, 3, 4) and whole % 100 not in (12, 13, 14):
        return forms[1]
    return forms[2]


@dataclass(frozen=True)
class Number:
    """A number in a template: {n} as the language writes it, {n:+d} signed, {n:word|words}
    with its counted word."""

    value: int | float
    language: str

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            return f"{self.shown('')} {plural(self.value, spec.split('|'), self.language)}"
        return self.shown(spec)

    def shown(self, spec: str) -> str:
        text = format(self.value, spec or ("d" if isinstance(self.value, int) else "g"))
        return text.replace(".", ",") if self.language == "pl" else text

    def __str__(self) -> str:
        return self.shown("")


def number(value: float, language: str, spec: str = "") -> str:
    return Number(value, language).shown(spec)


@dataclass(frozen=True)
class SideName:
    """A side in a template, as its name ({side}) or as the form of a word that agrees with it
    ({side:gives|give}, {side:poddaje|poddają}): the Axis is one (Oś, feminine), the Allies
    are many (Alianci), in both languages."""

    name: str
    many: bool
    key: str = ""            # as the rules write it: {side:key} in the log's English

    def __format__(self, spec: str) -> str:
        if spec == "key":
            return self.key
        if "|" in spec:
            one, many = spec.split("|")
            return many if self.many else one
        return format(self.name, spec)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Listed:
    """Several words or names in a template: {labels} joined with commas, {labels:and} with
    the language's "and" before the last; none at all is the word for none."""

    words: tuple[str, ...]
    language: str

    def __format__(self, spec: str) -> str:
        pick = 1 if self.language == "pl" else 0
        if not self.words:
            return WORDS["none"][pick]
        if spec == "and" and len(self.words) > 1:
            return f"{', '.join(self.words[:-1])} {WORDS['and'][pick]} {self.words[-1]}"
        return ", ".join(self.words)

    def __str__(self) -> str:
        return format(self, "")
