"""The tour's journey with a range sensor on the box."""
from __future__ import annotations

from cobi_companion.device.core.views import Lines
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.range_sensor import Condition
from cobi_companion.device.ui.trouble import notice
from tour import Tour, back_to

SENSOR = "table"       # the range sensor's name in the owner's settings


def journey_sensor(tour: Tour) -> None:
    """Check distance with a range sensor: measured and answered, then unplugged; and what
    the Measuring screen says when a measurement fails, for each way a reading goes wrong."""
    link = tour.folder / "sensor-link"
    sensor = FakeSensor(link, ff_frame(1000))
    tour.system(SENSOR)
    try:
        table = tour.box("sensor", [], config={"sensors": [
            {"name": SENSOR, "port": str(link), "model": "a02yyuw"}]})
        table.serve(lambda: table.box.app.sensors.online_names() == [SENSOR])
        guide = tour.guide(table, "sensor")
        guide.choose(tour.t("check_distance"))
        guide.press("ok", "ok")                         # over 100 cm? with the sensor
        table.serve(lambda: tour.t("measuring") != table.view.header.title)
        guide.press("ok", "ok")                         # too close to call: no
        sensor.talking = False
        guide.press("ok", "ok")
        sensor.unplug()
        table.serve(lambda: isinstance(table.view, Lines))
        guide.play(3)
        app = guide.app
        for condition in Condition:
            if condition is not Condition.OK:          # as Measuring says it
                guide.show(notice(app, app.t("no_measurement"), [
                    app.t(f"why_{condition.value}"), app.t("enter_instead")],
                    back_to(app.screen)))
    finally:
        sensor.close()
