"""The system test's smart dice: the virtual dice in the guest (tests/system/virtual_dice.py on
bumble, in a venv of its own), the probe of BlueZ from the box's sandbox, and the steps played
with the dice. Standard library only (runs on the host)."""
from __future__ import annotations

import json
import re
import shlex
import time
from typing import Any

from debian_image import PAYLOAD
from host import REPO, StepFailed, StepSkipped, poll
from qemu_guest import Guest

DICE_VENV = "/opt/virtual-dice"
DICE_LIB = f"{DICE_VENV}/lib/dice"
DICE_UNIT = "virtual-dice.service"
UNIT, DB = "cobi-companion.service", "/var/lib/cobi-companion/battles.db"
# Not named *cobi*: uninstall-purge looks for anything of the box left by that name.
PROBE = "/usr/local/lib/virtual-dice/bleak_probe.py"
BOX_VENV = "/opt/cobi-companion/venv"
# The [Service] settings of the box's unit that are not its sandbox: the probe runs under every
# other one, as the box does.
NOT_SANDBOX = {"Type", "NotifyAccess", "WatchdogSec", "TimeoutStartSec", "TimeoutStopSec",
               "Restart", "RestartSec", "ExecStart", "ExecReload", "SyslogIdentifier",
               "Environment", "WorkingDirectory", "StateDirectory", "StateDirectoryMode",
               "CacheDirectory", "CacheDirectoryMode", "ConfigurationDirectory",
               "RuntimeDirectory", "RuntimeDirectoryMode"}


def sandbox(without_group: str = "") -> list[str]:
    """The box's unit's sandbox as systemd-run properties (-p KEY=VALUE), read from the unit
    file itself; `without_group` taken out of SupplementaryGroups=."""
    text = (REPO / "systemd" / "cobi-companion.service").read_text()
    service = text.split("[Service]", 1)[1].split("[Install]", 1)[0]
    props: list[str] = []
    for line in service.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        if key in NOT_SANDBOX:
            continue
        if key == "SupplementaryGroups" and without_group:
            value = " ".join(g for g in value.split() if g != without_group)
        props += ["-p", f"{key}={value}"]
    return props


def start_dice(guest: Guest, said: list[str]) -> list[dict[str, Any]]:
    """bumble's venv from the payload's wheels, hci_vhci, the virtual dice as a service; then
    BlueZ's hci0 powered with the dice's controller."""
    guest.ok(f"test -x {DICE_VENV}/bin/python || (python3 -m venv {DICE_VENV} && "
             f"{DICE_VENV}/bin/pip install -q --no-index --find-links {PAYLOAD}/dice-wheels "
             f"-r {PAYLOAD}/dice-wheels/requirements.txt)", 1800)
    guest.ok(f"install -d {DICE_LIB} && cp {PAYLOAD}/src/tests/system/virtual_dice.py "
             f"{PAYLOAD}/src/tests/system/die_peers.py {DICE_LIB}/")
    guest.ok("modprobe hci_vhci && test -c /dev/vhci")
    guest.ok(f"systemctl reset-failed {DICE_UNIT} 2>/dev/null; systemd-run --unit {DICE_UNIT} "
             f"{DICE_VENV}/bin/python {DICE_LIB}/virtual_dice.py serve")
    poll_ok(guest, f"journalctl -u {DICE_UNIT} -o cat | grep -q 'virtual dice ready'", 180,
            "the virtual dice ready")
    poll_ok(guest, "bluetoothctl show | grep -q 'Powered: yes'", 120,
            "bluetoothd's controller powered (bluetoothctl show)")
    kernel = guest.sh("journalctl -k -o cat | grep 'Bluetooth: hci0'")[1].strip()
    if kernel:
        said.append(f"the kernel said: {kernel}")
    show = guest.ok("bluetoothctl show")
    version = guest.ok("dpkg-query -W -f '${Version}' bluez")
    dice = dice_say(guest, "list")["dice"]
    said.append(f"bluez {version}: bluetoothd powered hci0 ({show.splitlines()[0].strip()}), "
                f"bumble's controller on /dev/vhci; {len(dice)} virtual dice advertising: "
                f"{', '.join(d['name'] + ' ' + d['address'] for d in dice)}")
    return list(dice)


def dice_say(guest: Guest, command: str) -> dict[str, Any]:
    out = guest.sh(f"python3 {DICE_LIB}/virtual_dice.py say {command}", 120)[1]
    reply: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    if not reply.get("ok"):
        raise StepFailed(f"virtual dice: {command!r}: {reply.get('error')}")
    return reply


def poll_ok(guest: Guest, command: str, timeout: float, what: str) -> None:
    poll(lambda: guest.sh(command)[0] == 0, timeout, what)


def probe_python(guest: Guest) -> tuple[str, str]:
    """The box's venv's Python when it has bleak (the adapter's dependency); until then a venv
    with bleak from the payload's wheels, said so."""
    if guest.sh(f"{BOX_VENV}/bin/python -c 'import bleak'")[0] == 0:
        version = guest.ok(f"{BOX_VENV}/bin/python -c 'import importlib.metadata as m; "
                           "print(m.version(\"bleak\"))'").strip()
        return f"{BOX_VENV}/bin/python", f"the box's venv (bleak {version})"
    guest.ok(f"test -x /opt/bleak-probe/bin/python || (python3 -m venv /opt/bleak-probe && "
             f"/opt/bleak-probe/bin/pip install -q --no-index --find-links "
             f"{PAYLOAD}/dice-wheels bleak)", 900)
    return "/opt/bleak-probe/bin/python", "a venv with bleak (not yet in the box's venv)"


def sandboxed(guest: Guest, python: str, args: str, without_group: str = "",
              timeout: float = 180) -> list[dict[str, Any]]:
    """bleak_probe.py run by systemd as a service with the box's unit's sandbox."""
    guest.ok(f"install -D -m 0644 {PAYLOAD}/src/tests/system/bleak_probe.py {PROBE}")
    props = " ".join(shlex.quote(p) for p in sandbox(without_group))
    rc, out = guest.sh(f"systemd-run --quiet --wait --pipe --collect {props} {python} {PROBE} "
                       f"{args}", timeout)
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise StepFailed(f"the probe said nothing (exit {rc}): {out.strip()[-1500:]}")
    return lines


def link(guest: Guest, said: list[str], dice: list[dict[str, Any]]) -> None:
    """bleak in the box's sandbox sees the virtual dice through BlueZ, connects to one, gets its
    notifications; the same sandbox opens no Bluetooth socket of its own."""
    python, which = probe_python(guest)
    found = sandboxed(guest, python, "scan 10")[-1]
    if "error" in found:
        raise StepFailed(f"bleak's scan in the box's sandbox: {found['error']}")
    seen = {d["address"]: d["name"] for d in found["found"]}
    missing = [d["name"] for d in dice if d["address"] not in seen]
    if missing:
        raise StepFailed(f"not seen by bleak in the sandbox: {missing}; seen {seen}")
    groups = guest.ok("id -nG cobi").split()
    if "bluetooth" not in groups:
        raise StepFailed(f"install.sh did not put cobi in group bluetooth: {groups}")
    said.append(f"{which} as cobi under the unit's sandbox ({len(sandbox()) // 2} properties "
                f"from cobi-companion.service): bleak's scan saw all {len(dice)} dice by name")
    said.append(listened(guest, python, dice[0]))
    hci = sandboxed(guest, python, "hci")[-1]
    plain = guest.ok(f"{python} {PAYLOAD}/src/tests/system/bleak_probe.py hci")
    if not str(hci.get("hci", "")).startswith("refused") or '"opened"' not in plain:
        raise StepFailed(f"an HCI socket: in the sandbox {hci}, as root outside it {plain}")
    said.append(f"an HCI socket of its own: {hci['hci']} in the sandbox (root outside it: opened)")
    bare = sandboxed(guest, python, "scan 5", without_group="bluetooth")[-1]
    policy = "allowed" if "found" in bare else f"refused ({bare.get('error')})"
    said.append(f"without group bluetooth the bus's policy says: {policy}")


def listened(guest: Guest, python: str, die: dict[str, Any]) -> str:
    """A die connected from the sandbox: subscribed, a throw's notifications arrive."""
    peer = die_uuids(guest, die["kind"])
    props = " ".join(shlex.quote(p) for p in sandbox())
    guest.ok(f"install -D -m 0644 {PAYLOAD}/src/tests/system/bleak_probe.py {PROBE}")
    guest.ok(f"systemctl reset-failed bleak-listen 2>/dev/null; systemd-run --quiet --unit "
             f"bleak-listen {props} -p StandardOutput=file:/run/bleak-listen.out {python} "
             f"{PROBE} listen {die['address']} {peer['SERVICE']} {peer['NOTIFY']} "
             f"{peer['WRITE']} 60")
    poll(lambda: '"subscribed"' in guest.sh("cat /run/bleak-listen.out")[1], 120,
         f"bleak subscribed to {die['name']}")
    thrown = dice_say(guest, f"throw {die['id']} 5")["at"]
    count = len(die_peer_throw(guest, die["kind"]))
    poll(lambda: guest.sh("cat /run/bleak-listen.out")[1].count('"notified"') >= count, 60,
         "the throw's notifications")
    dice_say(guest, f"leave {die['id']}")
    poll(lambda: '"disconnected"' in guest.sh("cat /run/bleak-listen.out")[1], 60,
         "the die's leaving seen by bleak")
    dice_say(guest, f"return {die['id']}")
    lines = [json.loads(line) for line in guest.ok("cat /run/bleak-listen.out").splitlines()
             if line.startswith("{")]
    if not any(line.get("has_service") for line in lines):
        raise StepFailed(f"{die['name']}'s service not found by bleak: {lines}")
    notified = [line for line in lines if "notified" in line]
    latency = (notified[-1]["at"] - thrown) * 1000
    return (f"{die['name']}: connected from the sandbox, its service there, subscribed; "
            f"'throw 5' came as {len(notified)} notifications "
            f"({', '.join(line['notified'] for line in notified)}), the last (the die settled) "
            f"{latency:.0f} ms after the throw (virtual die to bleak, emulated); 'leave' seen "
            f"as a disconnection")


def die_peer_throw(guest: Guest, kind: str) -> list[str]:
    """The notifications of a throw ending on 5, as the die's side makes them."""
    out = guest.ok(f"cd {DICE_LIB} && python3 -c 'import die_peers; print([b.hex() for b in "
                   f"die_peers.PEERS[\"{kind}\"](\"x\", die_peers.PEERS[\"{kind}\"]"
                   f".COLOURS[0]).throw(5)])'")
    found: list[str] = re.findall(r"'([0-9a-f]*)'", out)
    return found


def die_uuids(guest: Guest, kind: str) -> dict[str, str]:
    out = guest.ok(f"cd {DICE_LIB} && python3 -c 'import json, die_peers; p = die_peers.PEERS"
                   f"[\"{kind}\"]; print(json.dumps({{k: getattr(p, k) for k in (\"SERVICE\", "
                   f"\"NOTIFY\", \"WRITE\")}}))'")
    uuids: dict[str, str] = json.loads(out)
    return uuids


# ---- the steps the box plays with the dice ---------------------------------------------------
# Written against the box's screens as far as they are known: the words come from the box's own
# catalogues by key (words/locale), so English and Polish are played alike. The keys of the
# smart dice's screens are the pairing's and the rolling's; where they differ, change them here.
KEYS = {"menu": "smart_dice", "find": "find_dice", "finding": "finding_dice",
        "found": "dice_found", "axis": "axis", "allies": "allies",
        "roll": "throw_dice", "roll_more": "throw_more", "quiet": "throw_die_asleep",
        "offline": "die_asleep", "both": "both_throw", "pick": "pick_vehicle",
        "fire": "press_to_fire", "destroyed": "DESTROYED", "who_goes": "activate",
        "settings": "settings", "new": "new", "language": "language", "rules": "rules",
        "win": "WINS", "tank": "tank", "easy": "easy"}
# The knob actions of the same battle with real dice dialled: the suite's count
# (tests/device/games/test_smart_dice_box.py, in English and Polish alike).
DIALLED = {"easy": 24, "tank": 66}
KNOB = ("cw", "ccw", "ok", "back")


def catalogue(language: str) -> dict[str, str]:
    """The box's words by key: the English of companion.pot, or a language's .po."""
    locale = REPO / "words" / "locale"
    path = locale / "companion.pot" if language == "en" else locale / language / "companion.po"
    words: dict[str, str] = {}
    context = msgid = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgctxt "):
            context = json.loads(line[8:])
        elif line.startswith("msgid "):
            msgid = json.loads(line[6:])
        elif line.startswith("msgstr ") and context:
            words[context] = (json.loads(line[7:]) or msgid) if language != "en" else msgid
            context = ""
    return words


COUNTS = ("n", "count")          # a template's numbers (docs/translating.md)


def pattern(template: str) -> re.Pattern[str]:
    """A catalogue template as a pattern of the screen (docs/translating.md): {n} a number,
    {n:die|dice} a number and its counted word (# inside a form: where the number goes),
    {side:rolls|roll} one of the forms, any other {name} some words."""
    out, at = "", 0
    for found in re.finditer(r"\{(\w+)(?::([^}]*))?\}", template):
        out += re.escape(template[at:found.start()])
        name, forms = found.group(1), found.group(2)
        choice = "|".join(re.escape(form).replace("\\#", r"\d+")
                          for form in (forms or "").split("|"))
        if name in COUNTS and forms and "#" not in forms:
            out += rf"(\d+) (?:{choice})"
        elif forms:
            out += f"(?:{choice})"
        else:
            out += r"(\d+)" if name in COUNTS else r"(.+?)"
        at = found.end()
    return re.compile(out + re.escape(template[at:]))


def box_has_smart_dice(*needed: str) -> None:
    """A step needs the box's smart dice (its adapter) and the screens of its KEYS `needed` in
    this tree; else it is skipped, saying what is missing."""
    words = catalogue("en")
    missing = [KEYS[key] for key in needed if KEYS[key] not in words]
    if not (REPO / "device" / "ports" / "ble_dice.py").exists() or missing:
        adapter = "" if (REPO / "device" / "ports" / "ble_dice.py").exists() else \
            "device/ports/ble_dice.py, "
        raise StepSkipped(f"the box has not yet what this step plays ({adapter}catalogue keys "
                          f"{', '.join(missing)})")


def pair(box: Any, guest: Guest, said: list[str], dice: list[dict[str, Any]]) -> None:
    """Settings > Smart dice > Find dice: the dice the box's scan finds are listed; OK on the
    one under the cursor must make that die blink (the virtual die counts the box's flashes),
    and the box asks whose it is: its side, by its id (-axis, -allies). The die is told by its
    blink, else by the end of its name on the list (the end of its address); every die is
    paired either way, so that the steps after this one have their dice, and a die that did
    not blink fails the step at its end. All must be kept in the box's settings."""
    box_has_smart_dice("settings", "menu", "find", "finding", "found", "axis", "allies")
    words = catalogue("en")
    box.choose(words[KEYS["settings"]])
    box.choose(words[KEYS["menu"]])
    box.choose(words[KEYS["find"]])
    paired: list[str] = []
    unblinked: list[str] = []
    for _ in dice:
        screen = listed(box, words)                       # a die found, listed by the scan
        row = next(line[2:].strip() for line in screen.splitlines() if line.startswith("> "))
        before = {d["id"]: dice_state(guest, d)["flashes"] for d in dice}
        box.press("ok")
        die = blinking(guest, dice, before)
        if die is None:
            unblinked.append(row)
            die = next((d for d in dice if d["address"][-2:].lower() ==
                        row.split()[-1].lower()), None)
            if die is None:
                raise StepFailed(f"no blink, and no die's address ends as {row!r} does")
        box.choose(words[KEYS["axis"] if die["id"].endswith("-axis") else KEYS["allies"]])
        paired.append(f"{row} = {die['id']}")
    kept = guest.ok("sqlite3 /var/lib/cobi-companion/battles.db .dump")
    missing = [d["address"] for d in dice if d["address"] not in kept]
    if missing or unblinked:
        raise StepFailed(f"paired {', '.join(paired)}; not kept in the box's settings: "
                         f"{missing or 'none'}; the box's flash reached no die for "
                         f"{unblinked or 'none'} (a die being paired is not connected yet)")
    said.append(f"the box's scan found the {len(dice)} dice; each picked blinked and was given "
                f"its side: {', '.join(paired)}; all kept in the box's settings")
    back_to_start(box, words)


def back_to_start(box: Any, words: dict[str, str]) -> None:
    """Long presses until the start menu shows."""
    for _ in range(6):
        if words[KEYS["new"]] in box.screen():
            return
        box.press("back")
        time.sleep(2)
    box.wait_screen(words[KEYS["new"]])


def listed(box: Any, words: dict[str, str]) -> str:
    """The scan's screen once it lists a die (its title: finding, or found)."""
    titles = (words[KEYS["finding"]], words[KEYS["found"]])

    def shown() -> str:
        screen: str = box.screen()
        first = screen.splitlines()[0] if screen else ""
        return screen if any(t in first for t in titles) and "\n> " in screen else ""
    found: str = poll(shown, 120, f"a die listed by the box's scan (last: {box.screen()!r})")
    return found


def blinking(guest: Guest, dice: list[dict[str, Any]], before: dict[str, int]) -> Any:
    """The virtual die the box has told to blink since `before` (each die's flashes), or
    None when none was within 30 s."""
    def blinked() -> dict[str, Any] | None:
        return next((d for d in dice if dice_state(guest, d)["flashes"] > before[d["id"]]),
                    None)
    try:
        return poll(blinked, 30, "a virtual die told to blink by the box")
    except StepFailed:
        return None


def dice_state(guest: Guest, die: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = dice_say(guest, f"lit {die['id']}")["die"]
    return state


def fresh_box(guest: Guest, box: Any, said: list[str]) -> None:
    """A new box for the smart dice steps (its battles.db taken away, as a box just
    installed): its start menu in English, the Easy level, no battle, no dice paired."""
    guest.ok(f"systemctl stop {UNIT} && rm -f {DB}* && systemctl start {UNIT}", 300)
    box.wait_screen(catalogue("en")[KEYS["new"]], 300)
    said.append("a new box (its battles.db taken away): the start menu")


def own_die(dice: list[dict[str, Any]], side: str, n: int) -> dict[str, Any]:
    """The side's n-th die, round its dice (a GoDice and a Pixel: both makers throw)."""
    own = [d for d in dice if d["id"].endswith("-" + side)]
    return own[n % len(own)]


def steady(box: Any, quiet_s: float = 2.0, timeout: float = 120) -> str:
    """The screen once it has stayed the same for `quiet_s` (a shot's steps play out)."""
    last = [box.screen(), time.monotonic()]

    def still() -> str:
        now = box.screen()
        if now != last[0]:
            last[0], last[1] = now, time.monotonic()
            return ""
        return now if time.monotonic() - last[1] >= quiet_s else ""
    found: str = poll(still, timeout, "the screen staying still", step=0.5)
    return found


def throws(box: Any, guest: Guest, dice: list[dict[str, Any]], words: dict[str, str],
           side: str, faces: list[int], asked: list[str]) -> int:
    """`side`'s dice thrown on `faces`, each throw once the box asks for it ("Axis: roll 2
    dice", "... 2 more"; the roll-off's "Both: roll your die"), as many at a time as it asks
    for: the number of throws."""
    roll, more = pattern(words[KEYS["roll"]]), pattern(words[KEYS["roll_more"]])
    both = words[KEYS["both"]]
    name = words[KEYS[side]]
    done = throws_made = 0
    while done < len(faces):
        def asking() -> int:
            screen = box.screen()
            found = roll.search(screen) or more.search(screen)
            if found is not None and name in found.group(0):
                return int(next((g for g in found.groups() if g and g.isdigit()), "1"))
            return 1 if both in screen or (found is not None and name in screen) else 0
        count = poll(asking, 120, f"the box asking {side} to roll (last: {box.screen()!r})")
        asked.append(box.screen().splitlines()[1] if "\n" in box.screen() else box.screen())
        before = box.screen()
        for face in faces[done:done + count]:
            dice_say(guest, f"throw {own_die(dice, side, done)['id']} {face}")
            done += 1
        throws_made += 1
        changed(box, before)
    return throws_made


def changed(box: Any, screen: str) -> None:
    """Until the box shows something other than `screen` (the faces taken)."""
    poll(lambda: box.screen() != screen, 60, "the box taking the thrown faces")


def easy_battle(box: Any, guest: Guest, said: list[str], dice: list[dict[str, Any]]) -> None:
    """A whole Easy battle in English by the virtual dice, as the suite's
    test_smart_dice_take_fewer_knob_actions_than_real_dice_dialled plays it: a Tiger against
    a Sherman, the Axis first 5 : 2, its shot (to hit 5, D6+ 3) against the Sherman's armour
    (1): destroyed, the Axis wins. Counts the knob's actions."""
    box_has_smart_dice("roll", "roll_more", "both", "axis", "allies", "new", "win")
    words = catalogue("en")
    asked: list[str] = []
    knob = box.knob
    box.choose(words[KEYS["new"]])
    box.wait_screen("[ Armies ]")
    box.press("cw", "allies", "cw", "cw", "axis", "ok")        # Sherman: Allies, Tiger: Axis
    box.wait_screen(words[KEYS["both"]], 120)
    throws(box, guest, dice, words, "axis", [5], asked)
    throws(box, guest, dice, words, "allies", [2], asked)
    box.wait_screen(words[KEYS["pick"]], 120)
    box.press("ok", "ok")                                     # Tiger 1, Fire → Sherman 1
    poll(lambda: pattern(words[KEYS["fire"]]).search(box.screen()), 120, "the shot's preview")
    box.press("axis")                                         # fire
    throws(box, guest, dice, words, "axis", [5, 3], asked)
    throws(box, guest, dice, words, "allies", [1], asked)
    box.wait_screen(words[KEYS["destroyed"]], 180)
    steady(box)
    box.press("ok")
    poll(lambda: pattern(words[KEYS["win"]]).search(box.screen()), 180, "the Axis winning")
    knob = box.knob - knob
    said.append(f"Easy in English: {len(asked)} throws asked for ({'; '.join(asked)}), the "
                f"Axis wins; {knob} knob actions, where real dice dialled take "
                f"{DIALLED['easy']} (tests/device/games/test_smart_dice_box.py)")
    if knob >= DIALLED["easy"]:
        raise StepFailed(f"{knob} knob actions: not fewer than the dial's {DIALLED['easy']}")


def tank_turn(box: Any, guest: Guest, said: list[str], dice: list[dict[str, Any]]) -> None:
    """A Tank Game turn in Polish by the virtual dice, as the suite plays it: the Sherman
    fires at the Tiger's rear (to hit 3, reload 5, its nine damage dice, thrown two at a
    time: "roll 2 more"), then all done: the Axis's turn."""
    box_has_smart_dice("roll", "roll_more", "both", "axis", "allies", "new", "who_goes")
    en, words = catalogue("en"), catalogue("pl")
    asked: list[str] = []
    for _ in range(6):                      # the Easy battle's end: OK, to the start menu
        if en[KEYS["new"]] in box.screen():
            break
        box.press("ok")
        time.sleep(2)
    box.choose(en[KEYS["settings"]])
    box.choose(en[KEYS["language"]])                          # English → Polski
    box.choose(words[KEYS["rules"]])                          # Easy → Tank Game
    box.wait_screen(words[KEYS["tank"]])
    box.press("back")
    knob = box.knob
    box.choose(words[KEYS["new"]])
    box.press("cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")   # Tiger v Sherman
    box.wait_screen(words[KEYS["both"]], 120)
    throws(box, guest, dice, words, "axis", [4], asked)
    throws(box, guest, dice, words, "allies", [2], asked)
    steady(box)
    box.press("ok")                                           # the Allies go first
    steady(box)
    box.press("ok", "ok", "ok", "ok", "ok", "cw", "cw", "allies")   # Sherman 1 fires: rear
    throws(box, guest, dice, words, "allies", [3, 5, 3, 4, 4, 4, 4, 4, 4, 4, 4], asked)
    steady(box)
    box.press("ok")                                           # the outcome
    steady(box)
    box.press("ok")                                           # all done
    poll(lambda: words[KEYS["who_goes"]] in box.screen() and words[KEYS["axis"]] in
         box.screen().splitlines()[0], 180, f"the Axis's turn (last: {box.screen()!r})")
    knob = box.knob - knob
    said.append(f"a Tank Game turn in Polish: {len(asked)} throws asked for "
                f"({'; '.join(asked)}); {knob} knob actions, where real dice dialled take "
                f"{DIALLED['tank']}")
    if knob >= DIALLED["tank"]:
        raise StepFailed(f"{knob} knob actions: not fewer than the dial's {DIALLED['tank']}")


def leave_and_return(box: Any, guest: Guest, said: list[str], die: dict[str, Any]) -> None:
    """A paired die the box keeps connected leaves (drops its link, stops advertising): the
    box says it is offline and plays on (its panel answers the knob); back, the box connects
    to it again by itself."""
    box_has_smart_dice("settings", "menu")
    poll(lambda: dice_state(guest, die)["connected"], 180, f"the box connected to {die['id']}")

    def logged(what: str) -> int:
        lines = guest.sh(f"journalctl -u {UNIT} -o cat | grep -c 'smart dice: "
                         f"{die['address']} {what}'")[1].strip()
        return int(lines or 0)
    connected = logged("connected")
    dice_say(guest, f"leave {die['id']}")
    poll(lambda: logged("offline") > 0, 180, f"the box saying {die['id']} is offline")
    before = box.screen()
    box.press("cw")
    poll(lambda: box.screen() != before, 60, "the box answering the knob meanwhile")
    box.press("ccw")
    dice_say(guest, f"return {die['id']}")
    poll(lambda: dice_state(guest, die)["connected"] and logged("connected") > connected, 300,
         f"{die['id']} connected again by the box")
    said.append(f"{die['id']}: connected; left: the box logged it offline and answered the "
                f"knob meanwhile; back: the box connected to it again by itself")


def english_again(box: Any, said: list[str]) -> None:
    """The box back in English (Polski → Deutsch → English on the Language row), back in the
    battle, for the steps after these."""
    pl, de, en = catalogue("pl"), catalogue("de"), catalogue("en")
    box.press("back")                               # the battle's menu
    box.choose(pl[KEYS["settings"]])
    box.choose(pl[KEYS["language"]])                # → Deutsch
    box.choose(de[KEYS["language"]])                # → English
    box.wait_screen(f"{en[KEYS['language']]}: English")
    box.press("back")                               # back in the battle (or its menu)
    poll(lambda: "[ Settings ]" not in box.screen(), 60, "the settings left")
    if "[ Menu ]" in box.screen():
        box.press("back")
    poll(lambda: "[ Menu ]" not in box.screen(), 60, "back in the battle")
    said.append(f"Settings > Language: English again; {box.screen().splitlines()[0].strip()}")
