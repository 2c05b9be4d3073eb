"""The settings menu: language, rules level, each side's dice, sound, voice, volume, speed,
brightness, then the box's own rows."""
from __future__ import annotations

from collections.abc import Callable

from cobi_companion.device.core.app import REMINDS, VOICES, App, Next, Screen
from cobi_companion.device.core.saying import outcome
from cobi_companion.device.core.setting_values import DICE_SOURCES, SPEEDS
from cobi_companion.device.core.spoken import Spoken, item
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.pairing import smart_dice_menu
from cobi_companion.device.games.system import rows as system_rows
from cobi_companion.device.ui.widgets import Choose, said_item
from cobi_companion.rules.levels import next_rules
from cobi_companion.words import languages

# The volume's steps: 20% to 100% (the row goes round), 6 dB apart (ports/espeak.py
# `amplitude`): each step as much louder to the ear as the last.
VOLUME_STEP = 20


def next_volume(volume: int) -> int:
    """The volume one press of its row gives: a step up, at most 100%, then round to the
    first step (a config's 50 goes 70, 90, 100, 20)."""
    return min(100, volume + VOLUME_STEP) if volume < 100 else VOLUME_STEP


def next_language(code: str) -> str:
    """The language one press of its row gives: the next of the registry's, round to the
    first (English, Polski, Deutsch, English). A language that is no longer there (a test's
    pseudo-language) goes to the first."""
    codes = languages.codes()
    return codes[(codes.index(code) + 1) % len(codes)] if code in codes else codes[0]


def voice_row(app: App) -> str:
    """The voice row: what the box says (nothing, outcomes, outcomes and whose turn), and why
    nothing is heard where that is so (no speech engine, no sound out)."""
    row = joined(": ", app.t("voice"), app.t("voice_" + app.settings.voice))
    notice = app.speech.notice
    # the setting stays in sight (OK still changes it), the reason beside it
    return row if notice is None else joined(" · ", row, app.t(notice))


def next_speed(speed: str) -> str:
    """The speed one press of its row gives: normal, slower, normal."""
    return SPEEDS[(SPEEDS.index(speed) + 1) % len(SPEEDS)] if speed in SPEEDS else SPEEDS[0]


def heard(app: App, setting: str, value: object) -> None:
    """The voice's `setting` changed to `value`, and a short sentence said as it now sounds
    (after the row's frame, as every sentence), so the players hear what they chose; an
    outcome, so that pressing again cuts it short at once. Not with the voice off."""
    setattr(app.settings, setting, value)
    app.speak(outcome("say_sample"))


def remind_row(app: App) -> str:
    """The Remind row: the quiet pause after which a prompt is said again, or off."""
    pause = app.settings.remind_s
    return joined(": ", app.t("remind"), app.t("seconds", s=pause) if pause else app.t("off"))


def next_remind(pause: int) -> int:
    """The pause one press of the Remind row gives: off, 20 s, 60 s, round again."""
    return REMINDS[(REMINDS.index(pause) + 1) % len(REMINDS)] if pause in REMINDS \
        else REMINDS[0]


def switch(app: App, key: str, on: bool) -> Spoken:
    """A switch's row as the voice reads it: on or off in words (the panel's "wł." is short
    for the row's width)."""
    return item("say_item_on" if on else "say_item_off", item=app.t(key))


def said_remind(app: App) -> Spoken:
    """The Remind row as the voice reads it, its pause in words: "every twenty seconds",
    "every minute", off."""
    pause = app.settings.remind_s
    if pause == 60:
        return item("say_item_remind_minute")
    return item("say_item_remind", s=pause) if pause else switch(app, "remind", False)


Row = tuple[str, Callable[[], Screen | None], Spoken | None]   # label, OK, said (None: label)
BUTTON_SIDES = ("axis", "allies")


def next_source(source: str) -> str:
    """The dice source one press of a side's dice row gives: buttons, real dice (dialled),
    smart dice, round again."""
    return DICE_SOURCES[(DICE_SOURCES.index(source) + 1) % len(DICE_SOURCES)] \
        if source in DICE_SOURCES else DICE_SOURCES[0]


def dice_row(app: App, side: str) -> Row:
    """A side's dice row ("Axis dice: Smart"): smart dice with none paired to the side
    say so, as the box will fall back to its button for them."""
    s = app.settings
    source = s.source(side)
    shown = "dice_smart_none" if source == "smart" and not s.paired(side) else "dice_" + source

    def step() -> None:
        s.dice = {**s.dice, side: next_source(source)}
    return joined(": ", app.t(side + "_dice"), app.t(shown)), step, None


def settings_menu(app: App, back: Next, index: int = 0) -> Screen:
    """The settings: a toggle redraws the menu on its row; the box's own rows (screen off,
    files in use, restart, power off) come from `system`."""
    s = app.settings
    rows: list[Row] = [
        (joined(": ", app.t("language"), languages.get(s.language).name),
         lambda: setattr(s, "language", next_language(s.language)), None),
        (joined(": ", app.t("rules"), app.t(s.rules)),
         lambda: setattr(s, "rules", next_rules(s.rules)), None),
        *(dice_row(app, side) for side in BUTTON_SIDES),
        (app.t("smart_dice"), lambda: smart_dice_menu(app, lambda: again(smart)), None),
        (joined(": ", app.t("sound"), app.t("on" if s.sound else "off")),
         lambda: setattr(s, "sound", not s.sound), switch(app, "sound", s.sound)),
        (voice_row(app), lambda: setattr(s, "voice", VOICES[(VOICES.index(s.voice) + 1)
                                                             % len(VOICES)]), None),
        (joined(": ", app.t("volume"), f"{s.volume}%"),
         lambda: heard(app, "volume", next_volume(s.volume)), None),
        (joined(": ", app.t("speed"), app.t("speed_" + s.speed)),
         lambda: heard(app, "speed", next_speed(s.speed)), None),
        (remind_row(app), lambda: setattr(s, "remind_s", next_remind(s.remind_s)),
         said_remind(app)),
        (joined(": ", app.t("brightness"), f"{round(s.brightness / 255 * 100)}%"),
         lambda: setattr(s, "brightness", {255: 128, 128: 32, 32: 255}.get(s.brightness, 255)),
         None),
    ]

    smart = [label for label, _, _ in rows].index(app.t("smart_dice"))

    def again(i: int) -> Screen:
        return settings_menu(app, back, i)
    rows += [(label, then, None) for label, then in system_rows(app, again, len(rows))]

    def chosen(i: int) -> Screen:
        opened = rows[i][1]()
        if opened is not None:          # a row that opens a screen of its own
            return opened
        app.on_settings(s)              # a toggle: saved, and the menu redrawn on its row
        return again(i)
    return Choose(app.t("settings"), [label for label, _, _ in rows], chosen, back=back,
                  index=index, spoken=[said or said_item(label) for label, _, said in rows])

