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
ALLOWED = ["org.freedesktop.login1.power-off", "org.freedesktop.login1.reboot"]
# Every action logind (systemd 252) asks polkit about, and any more this machine's logind names.
LOGIN1_POLICY = Path("/usr/share/polkit-1/actions/org.freedesktop.login1.policy")
LOGIN1 = [f"org.freedesktop.login1.{name}" for name in [
    "inhibit-block-shutdown", "inhibit-delay-shutdown", "inhibit-block-sleep",
    "inhibit-delay-sleep", "inhibit-block-idle", "inhibit-handle-power-key",
    "inhibit-handle-suspend-key", "inhibit-handle-hibernate-key", "inhibit-handle-lid-switch",
    "inhibit-handle-reboot-key", "set-self-linger", "set-user-linger", "attach-device",
    "flush-devices", "power-off", "power-off-multiple-sessions", "power-off-ignore-inhibit",
    "reboot", "reboot-multiple-sessions", "reboot-ignore-inhibit", "halt",
    "halt-multiple-sessions", "halt-ignore-inhibit", "suspend", "suspend-multiple-sessions",
    "suspend-ignore-inhibit", "hibernate", "hibernate-multiple-sessions",
    "hibernate-ignore-inhibit", "manage", "lock-sessions", "set-reboot-parameter",
    "set-reboot-to-firmware-setup", "set-reboot-to-boot-loader-menu",
    "set-reboot-to-boot-loader-entry", "set-wall-message", "chvt"]]
OTHERS = ["org.freedesktop.systemd1.manage-units", "org.freedesktop.login1.power-off-extra",
          "org.freedesktop.login1.power-offx", "org.freedesktop.login1", ""]
# Names close to the service user's, and the usual others.
OTHER_USERS = ["pi", "root", "nobody", "cobi2", "Cobi", "cobi ", " cobi", "xcobi", ""]


def login1_actions() -> list[str]:
    """logind's actions: systemd 252's, and those this machine's policy file declares."""
    declared = re.findall(r'<action id="([^"]+)"', LOGIN1_POLICY.read_text()) \
        if LOGIN1_POLICY.exists() else []
    return sorted(set(LOGIN1) | set(declared))


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


def answers(asked: list[list[str]]) -> list[str | None]:
    """The rule's answer, as polkitd would get it, for each [action, user]."""
    result = subprocess.run([str(NODE), "-e", RUNNER, str(RULE)], input=json.dumps(asked),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["rules"] == 1
    return list(found["answers"])


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_only_the_service_user_may_power_off_and_reboot() -> None:
    user = service_user()
    asked = [[action, who] for action in login1_actions() + OTHERS
             for who in (user, *OTHER_USERS)]
    for (action, who), answer in zip(asked, answers(asked), strict=True):
        expected = "yes" if who == user and action in ALLOWED else None
        assert answer == expected, (action, who, answer)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_no_power_off_despite_inhibitors_or_other_sessions() -> None:
    # logind asks for these when a program holds a shutdown lock or someone else is logged in:
    # the box obeys the lock and does not cut the others off.
    user = service_user()
    variants = [f"org.freedesktop.login1.{verb}-{why}" for verb in ("power-off", "reboot")
                for why in ("ignore-inhibit", "multiple-sessions")]
    assert set(variants) <= set(login1_actions())
    assert answers([[action, user] for action in variants]) == [None] * len(variants)
    assert answers([[action, user] for action in ALLOWED]) == ["yes"] * len(ALLOWED)
