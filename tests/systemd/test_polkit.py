"""systemd/50-cobi-companion.rules: the polkit rule that lets the service user power off and
restart the Pi, and nothing else. Run under Node.js (when installed) with a stand-in for
polkit's `polkit` object: the rule is plain ES5, which polkit's JavaScript engine runs too."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RULE = REPO / "systemd" / "50-cobi-companion.rules"
NODE = shutil.which("node") or shutil.which("nodejs")
ALLOWED = [f"org.freedesktop.login1.{verb}{variant}" for verb in ("power-off", "reboot")
           for variant in ("", "-multiple-sessions", "-ignore-inhibit")]
OTHERS = ["org.freedesktop.login1.suspend", "org.freedesktop.login1.halt",
          "org.freedesktop.login1.set-wall-message", "org.freedesktop.systemd1.manage-units",
          "org.freedesktop.login1.power-off-extra"]

# Loads the rule as polkitd would, then prints its answer for each [action, user] on stdin.
RUNNER = """
const fs = require("fs");
const rules = [];
const polkit = {Result: {YES: "yes", NO: "no", AUTH_ADMIN: "auth_admin", NOT_HANDLED: null},
                addRule: (rule) => rules.push(rule)};
new Function("polkit", fs.readFileSync(process.argv[1], "utf8"))(polkit);
const asked = JSON.parse(fs.readFileSync(0, "utf8"));
console.log(JSON.stringify({rules: rules.length, answers: asked.map(
    ([id, user]) => rules[0]({id: id}, {user: user, local: false, active: false}))}));
"""


def service_user() -> str:
    unit = (REPO / "systemd" / "cobi-companion.service").read_text()
    user = re.search(r"^User=(\S+)$", unit, re.M)
    script = re.search(r"^readonly SERVICE_USER=(\S+)$",
                       (REPO / "systemd" / "install.sh").read_text(), re.M)
    assert user and script and user[1] == script[1]
    return user[1]


def test_the_rule_names_the_service_user_and_the_installed_name() -> None:
    assert f'subject.user === "{service_user()}"' in RULE.read_text()
    assert re.search(r"^readonly POLKIT_RULE=/etc/polkit-1/rules\.d/50-\$NAME\.rules$",
                     (REPO / "systemd" / "install.sh").read_text(), re.M)
    assert RULE.name == "50-cobi-companion.rules"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_only_the_service_user_may_power_off_and_reboot() -> None:
    user = service_user()
    asked = [[action, who] for action in ALLOWED + OTHERS for who in (user, "pi", "root")]
    result = subprocess.run([str(NODE), "-e", RUNNER, str(RULE)], input=json.dumps(asked),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    assert answers["rules"] == 1
    for (action, who), answer in zip(asked, answers["answers"], strict=True):
        expected = "yes" if who == user and action in ALLOWED else None
        assert answer == expected, (action, who, answer)
