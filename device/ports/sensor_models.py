"""The supported serial range sensor models: each one's name (as the config and the command
line write it), protocol family, speed and limits.

The one list of the models: the config's check allows the names of MODELS (wiring.SENSOR_MODELS)
and `range_sensor.py` parses their frames. A module of its own, without the parsers, so that the
config reads it at the start while the parsers load only when the config names a sensor.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Model:
    """One supported sensor model, by its config/CLI name."""

    name: str                          # "a02yyuw", "us-100", "tf-luna", ...
    family: str                        # "ff", "us100", "maxbotix", "benewake"
    baud: int
    min_cm: float                      # the blind zone ends here
    max_cm: float
    request: bytes | None = None       # bytes that ask for one reading; None: it talks alone
    unit: str = "mm"                   # what the frame's number counts: "mm", "cm" or "in"
    trigger: bytes | None = None       # what asks for a reading in the on-request mode


def _model(name: str, family: str, baud: int, min_cm: float, max_cm: float, unit: str = "mm",
           *, request: bytes | None = None, trigger: bytes | None = None) -> Model:
    return Model(name, family, baud, min_cm, max_cm, request=request, unit=unit, trigger=trigger)


# Limits from shared/notes/sensors.md; where it gives none, the datasheets': ME007YS up to
# 450 cm, AJ-SR04M 600 cm (normal probe), MaxBotix XL reports 20 cm at least, the original
# TFmini measures from 30 cm.
MODELS: dict[str, Model] = {model.name: model for model in (
    _model("a02yyuw", "ff", 9600, 3, 450),
    _model("a01nyub", "ff", 9600, 28, 750),
    _model("me007ys", "ff", 9600, 28, 450),
    # JSN-SR04T and AJ-SR04M talk alone in their automatic serial mode (the default here);
    # in their serial-trigger mode they answer the trigger byte: `on_request(model)`.
    _model("jsn-sr04t", "ff", 9600, 25, 450, trigger=b"\x55"),
    _model("aj-sr04m", "ff", 9600, 25, 600, trigger=b"\x01"),
    _model("us-100", "us100", 9600, 2, 450, request=b"\x55", trigger=b"\x55"),
    _model("maxbotix-lv", "maxbotix", 9600, 0, 647.7, "in"),        # 0–255 in
    _model("maxbotix-xl", "maxbotix", 9600, 20, 765, "cm"),
    _model("maxbotix-hr", "maxbotix", 9600, 30, 500, "mm"),
    _model("tfmini", "benewake", 115200, 30, 1200, "cm"),
    _model("tfmini-s", "benewake", 115200, 10, 1200, "cm"),
    _model("tf-luna", "benewake", 115200, 20, 800, "cm"),
)}
