"""A refusal of the rules in the box's words: an English and a Polish template for every
code (`Refusal`, and each game's own: `EasyRefusal`, `TankRefusal`, `CobraRefusal`), filled
with the refusal's values; the same for Cobra's notes (`Why`). The box never reads the rules'
sentence (the command line and the journal keep it, `str(exc)`).

The values are said as the language says them: numbers with its decimal mark and plural
forms (`words.Number`), several names in a list (`words.Listed`), and the values that are words
of the rules (a card field, a weapon, a side, an action...) in the language's own words, from
the i18n table (`WORDED`). Labels, card titles and what a player typed are names: as they are.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from cobi_companion.device.core import i18n
from cobi_companion.device.core.words import Listed, Number
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.easy.refusals import EasyRefusal
from cobi_companion.rules.errors import Coded, Refusal, RulesError, Value
from cobi_companion.rules.tank.refusals import TankRefusal

# The values that are words, and the prefix of their keys in i18n (a side is its own key).
WORDED = {"field": "field_", "weapon": "weapon_", "weapons": "weapon_", "side": "",
          "playing": "", "nation": "cobra_", "said": "cobra_", "action": "action_",
          "kind": "kind_", "quantity": "quantity_", "situation": "sit_", "role": "role_",
          "modifier": "mod_", "shift_kind": "shiftkind_", "question": "q_",
          "start": "levelname_", "weather": "weather_", "rule": "house_",
          "army": "army_", "paid": "army_", "vp_source": "vp_", "step_kind": "stepkind_",
          "landing": "landing_", "direction": "dir_"}
# Puts a word's key into words: the i18n table's in one language (an app's `t`, watched by
# tests, or `i18n.text` with its language).
Translate = Callable[[str], str]

# the shared refusals, the Easy level's, the Tank Game's, Cobra's
R, E, T, C = Refusal, EasyRefusal, TankRefusal, CobraRefusal
TEMPLATES: dict[Coded, tuple[str, str]] = {
    # the battle, the cards and the rules levels
    R.SQUAD_NEEDS_FIGURE: ("a squad of {name} needs at least one figure",
                           "drużyna „{name}” potrzebuje co najmniej jednej figurki"),
    R.NO_SUCH_PIECE: ("no piece called '{label}' in this battle",
                      "w tej bitwie nie ma jednostki „{label}”"),
    R.NO_SUCH_WEAPON: ("{name} has no weapon '{weapon}'; it carries: {weapons}",
                       "{name} nie ma broni „{weapon}”; jego broń: {weapons}"),
    R.NO_CARD_VALUE: ("card {name}{source} has no value for {field:key} ({field}): add it from "
                      "the printed card",
                      "karta {name}{source} nie ma wartości „{field}”: dopisz ją z "
                      "wydrukowanej karty"),
    R.UNKNOWN_RULES: ("unknown rules '{rules}': choose {choices}",
                      "nieznane zasady „{rules}”: wybierz {choices}"),
    R.UNKNOWN_CARD: ("unknown card '{card}': the known cards are {choices}",
                     "nieznana karta „{card}”: znane karty to {choices}"),
    R.UNKNOWN_HOUSE_RULE: ("unknown house rule '{rule:key}': choose {choices}",
                           "nieznana zasada domowa „{rule:key}”: wybierz {choices}"),
    R.HOUSE_RULE_VALUE: ("house rule {rule:key}: '{value}' is not allowed: choose {choices}",
                         "zasada domowa „{rule}”: wartość „{value}” jest niedozwolona: "
                         "wybierz {choices}"),

    # firing at hard targets, reloading, moving
    R.DESTROYED: ("{name} is destroyed", "{name} jest zniszczony"),
    R.FIRER_DESTROYED: ("{name} is destroyed and cannot fire",
                        "{name} jest zniszczony i nie może strzelać"),
    R.GUN_LOST: ("{name} has lost its gun and cannot fire",
                 "{name} stracił działo i nie może strzelać"),
    R.NO_GUN: ("{name} has no gun: its card says none",
               "{name} nie ma działa: na jego karcie jest „brak”"),
    R.UNLOADED: ("{name} is unloaded: it must reload before it can fire",
                 "{name} jest niezaładowany: musi przeładować, zanim strzeli"),
    R.TARGET_DESTROYED: ("{name} is already destroyed", "{name} jest już zniszczony"),
    E.EASY_NO_MODIFIERS: ("the Easy level has no modifiers: hull down, range and crew belong "
                          "to the Tank Game",
                          "poziom łatwy nie ma modyfikatorów: osłona, odległość i załoga "
                          "należą do Gry czołgowej"),
    E.EASY_NO_TOP: ("the Easy level hits front, side or rear armour: the top armour belongs to "
                    "the Tank Game",
                    "na poziomie łatwym trafia się przód, bok lub tył: pancerz górny należy do "
                    "Gry czołgowej"),
    T.IMPOSSIBLE_CM: ("a {quantity} of {cm} cm is not possible",
                      "{quantity}: {cm} cm to niemożliwe"),
    T.AP_AT_GUN: ("AP is not effective against guns: fire HE or a machine gun",
                  "AP nie działa przeciw działom: strzelaj HE albo z karabinu maszynowego"),
    T.AP_AT_SOFT_TARGET: ("{name} is a soft target: fire HE or a weapon of the Soft Targets "
                          "Table at it",
                          "{name} to cel miękki: strzelaj do niego HE albo bronią z Tabeli "
                          "celów miękkich"),
    T.NO_RELOAD_ROLL: ("{name} has no reload roll on its card",
                       "{name} nie ma na karcie rzutu na przeładowanie"),
    T.NOTHING_TO_RELOAD_GUN_LOST: ("{name} has lost its gun: there is nothing to reload",
                                   "{name} stracił działo: nie ma czego przeładować"),
    T.NO_GUN_TO_RELOAD: ("{name} has no gun to reload: its card says none",
                         "{name} nie ma działa do przeładowania: na jego karcie jest „brak”"),
    R.IMMOBILIZED_FOR_GOOD: ("{name} is immobilized: it cannot move for the rest of the game",
                             "{name} jest unieruchomiony: nie ruszy się do końca gry"),
    R.NEGATIVE_MOVE: ("turns and distance moved cannot be negative",
                      "skręty i przebyta odległość nie mogą być ujemne"),
    R.ROAD_AND_ROUGH: ("the road bonus needs the whole move on road: a move across rough "
                       "ground is not all on road",
                       "premia za drogę wymaga całego ruchu po drodze: ruch przez trudny teren "
                       "nie jest cały po drodze"),
    R.MOVING_NEEDS_NO_DICE: ("moving needs no dice", "ruch nie wymaga kości"),

    # Tank Game turns
    T.NOT_YOUR_PIECE: ("{label} is an {side} piece: it is the {playing} turn",
                       "{label} gra po stronie: {side}, a teraz jest tura: {playing}"),
    T.OUT_OF_FIGHT: ("{label} is out of the fight", "{label} jest poza grą"),
    T.OFF_MAP: ("{label} is off the map", "{label} jest poza mapą"),
    T.OFF_MAP_PLACE_FIRST: ("{label} is off the map: place it at its edge first",
                            "{label} jest poza mapą: najpierw wystaw go przy swojej krawędzi"),
    T.PLACED_THIS_TURN: ("{label} was placed this turn: it is not active until a later turn",
                         "{label} wszedł na mapę w tej turze: będzie aktywny dopiero w "
                         "następnej"),
    T.ALREADY_ACTIVATED: ("{label} has already been activated this turn",
                          "{label} był już aktywowany w tej turze"),
    T.END_ACTIVATION_FIRST: ("end the activation of {labels} first",
                             "najpierw zakończ aktywację: {labels}"),
    T.ACTIVATIONS_USED: ("{side} has had its activation and its extra activation: end the "
                         "turn",
                         "{side} – aktywacja i dodatkowa aktywacja już były: zakończ turę"),
    T.FIRED_NO_EXTRA: ("{side} has had its activation (it fired, so no extra activation): "
                       "end the turn",
                       "{side} – aktywacja już była (z ogniem, więc bez dodatkowej): zakończ "
                       "turę"),
    T.PICK_PIECES: ("pick 1 to {most} pieces to activate",
                    "wybierz od 1 do {most} jednostek do aktywacji"),
    T.PICKED_TWICE: ("{label} is picked twice", "{label} wybrano dwa razy"),
    T.ONE_MODEL: ("only one model (vehicle or gun) may be activated at a time: {labels:and} "
                  "are both models",
                  "naraz można aktywować tylko jeden model (pojazd lub działo): {labels:and} "
                  "to dwa modele"),
    T.TOO_MANY_PIECES: ("an activation holds at most {most} figures and models, a squad "
                        "counting its figures: {counted} make {size}",
                        "aktywacja to najwyżej {most} figurek i modeli, drużyna liczy się "
                        "figurkami: {counted} to razem {size}"),
    T.NO_ACTIVATION: ("no activation is open", "żadna aktywacja nie trwa"),
    T.NO_ACTIVATION_FOR: ("no activation is open: activate {label} first",
                          "żadna aktywacja nie trwa: najpierw aktywuj {label}"),
    T.NOT_IN_ACTIVATION: ("{label} is not in this activation ({labels})",
                          "{label} nie należy do tej aktywacji ({labels})"),
    T.LEFT_MAP: ("{label} has left the map", "{label} zjechał z mapy"),
    T.ALREADY_DONE: ("{label} has already {action} in this activation: each piece does each "
                     "action once",
                     "{label}: w tej aktywacji już wykonano „{action}”; każda jednostka "
                     "wykonuje każdą akcję raz"),
    T.COMMANDER_LOST: ("{label} has lost its commander: it may only move off a friendly edge",
                       "{label} stracił dowódcę: może tylko zjechać z mapy przez własną "
                       "krawędź"),
    T.IMMOBILIZED: ("{label} is immobilized: it cannot move",
                    "{label} jest unieruchomiony: nie może się ruszać"),
    T.RELOADING_NO_MOVE_OR_FIRE: ("{label} reloaded in this activation: a reloading piece "
                                  "neither moves nor fires",
                                  "{label} przeładował w tej aktywacji: kto przeładowuje, nie "
                                  "rusza się ani nie strzela"),
    T.EXTRA_NO_FIRE: ("{label} is in the extra activation: its pieces may not fire",
                      "{label} jest w dodatkowej aktywacji: jej jednostki nie strzelają"),
    T.MOVED_NO_FIRE: ("{label} has moved in this activation: only pieces that have not moved "
                      "may fire",
                      "{label} ruszył się w tej aktywacji: strzelać mogą tylko jednostki, "
                      "które się nie ruszały"),
    T.HIDE_ONLY_FIGURES: ("{label} cannot hide now: only figures hide in play; a vehicle or "
                          "gun may only start hidden at set-up, in cover",
                          "{label} nie może się teraz ukryć: w grze ukrywają się tylko "
                          "figurki; pojazd lub działo może być ukryte tylko od początku, w "
                          "osłonie"),
    T.MOVED_NO_HIDE: ("{label} has moved in this activation: only figures that have not moved "
                      "may hide",
                      "{label} ruszył się w tej aktywacji: ukryć się mogą tylko figurki, "
                      "które się nie ruszały"),
    T.COVER_ONLY_FIGURES: ("{label} is a {kind}: only figures take cover",
                           "{label} to {kind}: do osłony idą tylko figurki"),
    T.MOVED_NO_COVER: ("{label} has moved in this activation: only figures that have not "
                       "moved may take cover",
                       "{label} ruszył się w tej aktywacji: do osłony idą tylko figurki, "
                       "które się nie ruszały"),
    T.SQUAD_NO_RELOAD: ("{label} is a squad of figures: only a vehicle or gun reloads",
                        "{label} to drużyna figurek: przeładowuje tylko pojazd lub działo"),
    T.ACTED_NO_RELOAD: ("{label} has {action} in this activation: only a vehicle or gun that "
                        "has not moved or fired may reload",
                        "{label}: w tej aktywacji już wykonano „{action}”; przeładować może "
                        "tylko pojazd lub działo, które się nie ruszało ani nie strzelało"),
    T.LOADED: ("{label} is loaded: there is nothing to reload",
               "{label} jest załadowany: nie ma czego przeładować"),
    T.COMMANDER_NOT_ACTIVE: ("{label} is not active: its commander moves in its activation",
                             "{label} nie jest aktywny: dowódca zmienia miejsce w aktywacji "
                             "swojego pojazdu"),
    T.NO_COMMANDER_TO_PUT_OUT: ("{label} has no commander to put out: only a closed "
                                "vehicle's commander sits out in the turret (an open-top's "
                                "crew are figures)",
                                "{label} nie ma dowódcy do wychylenia: z wieży wychyla się "
                                "tylko dowódca zamkniętego pojazdu (załoga odkrytego to "
                                "figurki)"),
    T.NOTHING_TO_FIRE: ("{label} has no weapon it can fire now",
                        "{label} nie ma teraz broni, z której może strzelać"),
    T.NO_COMMANDER_ON_MAP: ("{label} has no commander on the map",
                            "{label} nie ma dowódcy na mapie"),
    T.HAS_COMMANDER: ("{label} has its commander: only a vehicle whose commander was killed "
                      "leaves the map",
                      "{label} ma dowódcę: z mapy zjeżdża tylko pojazd, którego dowódca "
                      "zginął"),
    T.IMMOBILIZED_CANNOT_LEAVE: ("{label} is immobilized: it cannot move off the map",
                                 "{label} jest unieruchomiony: nie może zjechać z mapy"),
    T.NOT_OFF_MAP: ("{label} is not off the map", "{label} nie jest poza mapą"),
    T.COMMANDER_COMES_BACK: ("{label} is replacing its commander: it comes back at the end of "
                             "turn {turn}",
                             "{label} wymienia dowódcę: wraca pod koniec tury {turn}"),
    T.COMMANDER_LEAVES_FIRST: ("{label} is replacing its commander: it comes back after it "
                               "has left the map",
                               "{label} wymienia dowódcę: wróci, gdy zjedzie z mapy"),
    T.VEHICLE_PLACED_ALONE: ("{label} is a vehicle: it is placed on its own",
                             "{label} to pojazd: wjeżdża samodzielnie"),
    T.VEHICLES_PLACED: ("{side} has placed {most} vehicles this turn: at most {most} a turn",
                        "{side} – w tej turze wjechało już tyle pojazdów, ile można: {most} "
                        "na turę"),
    T.GUN_TOWED: ("{label} is a gun: it comes on towed by a vehicle placed this turn",
                  "{label} to działo: wjeżdża holowane przez pojazd wystawiony w tej turze"),
    T.NOT_A_CARRIER: ("{label} is not a vehicle placed this turn: figures ride and guns are "
                      "towed only with a vehicle placed this turn",
                      "{label} nie jest pojazdem wystawionym w tej turze: figurki wjeżdżają, "
                      "a działa są holowane tylko z pojazdem wystawionym w tej turze"),
    T.GUN_FIRED: ("{label} has fired its main gun in this activation: each weapon fires once "
                  "in an activation",
                  "{label} już strzelił z działa w tej aktywacji: każda broń strzela raz na "
                  "aktywację"),
    T.WEAPON_FIRED: ("{label} has fired its {weapon} {figures:time|times} in this activation: "
                     "each weapon fires once, a squad's once a figure",
                     "{label} strzelił już: {weapon}, {figures:raz|razy|razy} w tej aktywacji: "
                     "każda broń strzela raz, w drużynie raz na figurkę"),
    T.GRENADE_THROWN: ("{label} has thrown {figures:grenade|grenades} in this activation, one "
                       "a figure: figures armed with hand grenades can throw one per activation",
                       "{label} rzucił już {figures:granat|granaty|granatów} w tej aktywacji, "
                       "po jednym na figurkę: figurka z granatami rzuca jeden na aktywację"),
    # figures riding on vehicles
    T.RIDE_ONLY_FIGURES: ("{label} is not a squad of figures: only figures ride on vehicles",
                          "{label} to nie drużyna figurek: pojazdami jeżdżą tylko figurki"),
    T.ALREADY_RIDING: ("{label} already rides {vehicle}: it gets off first",
                       "{label} już jedzie pojazdem {vehicle}: najpierw musi zsiąść"),
    T.NOT_A_RIDE: ("{label} cannot ride {vehicle}: figures ride only a vehicle of their side on "
                   "the map, not destroyed",
                   "{label} nie może jechać pojazdem {vehicle}: figurki jeżdżą tylko "
                   "niezniszczonym pojazdem własnej strony, który jest na mapie"),
    T.NOT_RIDING: ("{label} is not riding a vehicle: there is nothing to get off",
                   "{label} nie jedzie żadnym pojazdem: nie ma z czego zsiadać"),
    T.CARRIED_NO_FIRE: ("{label} rode along as {vehicle} moved in this activation: only pieces "
                        "that have not moved may fire",
                        "{label} jechał, gdy {vehicle} ruszył w tej aktywacji: strzelać mogą "
                        "tylko jednostki, które się nie ruszyły"),
    T.RIDER_NO_HIDE_OR_COVER: ("{label} rides {vehicle}: a rider neither hides nor takes cover; "
                               "it gets off first",
                               "{label} jedzie pojazdem {vehicle}: pasażer nie ukrywa się ani "
                               "nie kryje; najpierw musi zsiąść"),

    # hiding and spotting
    T.MEASURE_WITH_TAPE: ("{cm} cm is too close to {limit} cm to call: measure with the tape "
                          "and enter the distance",
                          "{cm} cm to za blisko {limit} cm, by rozstrzygnąć: zmierz taśmą i "
                          "wpisz odległość"),
    T.ALREADY_HIDDEN: ("{label} is already hidden", "{label} jest już ukryty"),
    T.NO_COVER: ("{label} cannot hide here: there is no cover (decided when the map was set "
                 "up)",
                 "{label} nie może się tu ukryć: nie ma osłony (ustalone przy rozstawianiu "
                 "mapy)"),
    T.ENEMY_NEAR: ("{label} cannot hide: the nearest enemy figure is not more than {limit} cm "
                   "away ({cm} cm)",
                   "{label} nie może się ukryć: najbliższa figurka wroga jest nie dalej niż "
                   "{limit} cm ({cm} cm)"),
    T.ENEMY_NEAR_CALLED: ("{label} cannot hide: the nearest enemy figure is not more than "
                          "{limit} cm away (the players' call)",
                          "{label} nie może się ukryć: najbliższa figurka wroga jest nie "
                          "dalej niż {limit} cm (decyzja graczy)"),
    T.SAME_SIDE_SPOTS: ("{label} and {hidden} are on the same side: only an enemy spots a "
                        "hidden piece",
                        "{label} i {hidden} są po tej samej stronie: ukrytą jednostkę wykrywa "
                        "tylko wróg"),
    T.NOT_HIDDEN: ("{label} is not hidden: there is nothing to spot",
                   "{label} nie jest ukryty: nie ma czego wykrywać"),

    # distances
    T.NO_READINGS: ("no valid readings to measure from", "brak poprawnych odczytów do pomiaru"),
    T.OFFSET_BELOW_ZERO: ("the offset of {cm} cm makes a reading below 0 cm: check the "
                          "sensor's offset_cm",
                          "przesunięcie {cm} cm daje odczyt poniżej 0 cm: sprawdź offset_cm "
                          "czujnika"),
    T.UNKNOWN_COMPARISON: ("unknown comparison '{comparison}': over, within or at_least",
                           "nieznane porównanie „{comparison}”: over, within lub at_least"),
    T.UNKNOWN_QUESTION: ("unknown distance question '{question}': {choices}",
                         "nieznane pytanie o odległość „{question}”: {choices}"),
    T.NOT_FIRE_RANGE: ("'{question}' is not the fire range question: no to-hit modifier",
                       "„{question}” to nie pytanie o odległość strzału: bez modyfikatora "
                       "trafienia"),
    T.RANGE_TOO_CLOSE: ("range {cm} cm is too close to {limit} cm to call: measure with a "
                        "tape and answer over {limit} cm yes or no",
                        "odległość {cm} cm jest za blisko {limit} cm, by rozstrzygnąć: zmierz "
                        "taśmą i odpowiedz, czy ponad {limit} cm"),

    # soft targets and templates
    T.NO_HE: ("{name} has no HE: its card says none",
              "{name} nie ma HE: na jego karcie jest „brak”"),
    T.NO_TARGET: ("pick at least one target", "wybierz co najmniej jeden cel"),
    T.ONE_TARGET_ONLY: ("a {weapon} fires at one figure or vehicle: only template weapons "
                        "attack several",
                        "{weapon} strzela do jednej figurki lub pojazdu: kilka celów atakuje "
                        "tylko broń z szablonem"),
    T.FIRER_OUT: ("{label} is out of the fight and cannot fire",
                  "{label} jest poza grą i nie może strzelać"),
    T.NO_FIGURE_TO_FIRE: ("{label} has no figure left to fire",
                          "{label} nie ma już figurki, która mogłaby strzelać"),
    T.ALREADY_OUT: ("{label} is already out of the fight", "{label} jest już poza grą"),
    T.HIDDEN_TARGET: ("{label} is hidden: it cannot be fired at",
                      "{label} jest ukryty: nie można do niego strzelać"),
    T.FIGURES_TO_ATTACK: ("{label} has {figures:figure|figures}: attack 1 to {figures} of them",
                          "{label} ma {figures:figurkę|figurki|figurek}: atakuj od 1 do "
                          "{figures}"),
    T.CREW_INSIDE: ("{label}'s crew is inside: attack the vehicle (only a commander sitting "
                    "out in the turret is a figure to fire at)",
                    "{label} – załoga jest w środku: atakuj pojazd (figurką do ostrzału jest "
                    "tylko dowódca wychylony z wieży)"),
    T.ONE_COMMANDER: ("{label} has one figure outside, its commander: attack 1",
                      "{label} ma na zewnątrz jedną figurkę, dowódcę: atakuj 1"),
    T.CREW_INSIDE_SOFT: ("{label}'s crew is inside: attack the vehicle (figures riding on it "
                         "are squads of their own)",
                         "{label} – załoga jest w środku: atakuj pojazd (figurki jadące na nim "
                         "to osobne drużyny)"),
    T.CREW_LEFT: ("{label} has {figures:crew figure|crew figures} left",
                  "{label} ma w załodze jeszcze {figures:figurkę|figurki|figurek}"),
    T.GUN_NEEDS_TEMPLATE: ("a gun is hit only by HE or a machine gun's template (AP is not "
                           "effective against guns): aim at one of its crew",
                           "działo trafia tylko HE albo szablon karabinu maszynowego (AP nie "
                           "działa przeciw działom): celuj w kogoś z obsługi"),
    T.HARD_TARGET: ("{label} is a hard target: {weapon} fire cannot harm it",
                    "{label} to cel opancerzony: {weapon} mu nie zaszkodzi"),
    T.CREW_IN_HARD_COVER: ("{label}'s crew is in hard cover: only HE or grenades reach it",
                           "{label} – załoga jest w twardej osłonie: dosięgną jej tylko HE lub "
                           "granaty"),
    T.COAXIAL_LOST: ("{label} has lost its gun, and its turret machine gun ({weapon}, coaxial) "
                     "with it",
                     "{label} stracił działo, a z nim karabin maszynowy w wieży ({weapon}, "
                     "sprzężony)"),
    T.EXTERNAL_NEEDS_COMMANDER: ("{label}'s {weapon} is on the turret: only its commander "
                                 "sitting out in the turret fires it (put him out first)",
                                 "{label}: {weapon} jest na wieży: strzela z niego tylko "
                                 "dowódca siedzący na wieży (najpierw wystaw go na wieżę)"),
    T.RIDERS_IN_HARD_COVER: ("{label} rides in {vehicle}, an open-top vehicle: in hard cover "
                             "like its crew, only HE or grenades reach it",
                             "{label} jedzie w {vehicle}, pojeździe bez dachu: jest w twardej "
                             "osłonie jak załoga, dosięgną go tylko HE lub granaty"),
    T.TABLE_NO_ROW: ("the Soft Targets Table{source} has no row for {weapon:key}: add it from "
                     "your printed table",
                     "Tabela celów miękkich{source} nie ma wiersza „{weapon}”: dopisz go z "
                     "wydrukowanej tabeli"),
    T.TABLE_NO_RANGE: ("the Soft Targets Table{source} has no {weapon:key} value for {cm} cm "
                       "(it has {bands}): add it from your printed table",
                       "Tabela celów miękkich{source} nie ma wartości „{weapon}” dla {cm} cm "
                       "(ma: {bands}): dopisz ją z wydrukowanej tabeli"),
    T.TABLE_NO_RANGES: ("the Soft Targets Table{source} has no {weapon:key} value for {cm} cm "
                        "(it has no ranges): add it from your printed table",
                        "Tabela celów miękkich{source} nie ma wartości „{weapon}” dla {cm} cm "
                        "(nie ma w niej odległości): dopisz ją z wydrukowanej tabeli"),
    T.TABLE_NO_TEMPLATE: ("the Soft Targets Table{source} has no template modifier for "
                          "{weapon:key}: add it from your printed table",
                          "Tabela celów miękkich{source} nie ma modyfikatora szablonu "
                          "„{weapon}”: dopisz go z wydrukowanej tabeli"),
    T.TABLE_NO_SITUATION: ("the Soft Targets Table{source} has no value for a target "
                           "{situation}: add it from your printed table",
                           "Tabela celów miękkich{source} nie ma wartości dla celu "
                           "{situation}: dopisz ją z wydrukowanej tabeli"),
    T.RANGE_NEEDED: ("a {weapon} shot needs the range in cm for the Soft Targets Table",
                     "strzał (broń: {weapon}) wymaga odległości w cm dla Tabeli celów "
                     "miękkich"),
    T.UNKNOWN_SITUATION: ("unknown situation '{situation}': allowed are {choices}",
                          "nieznane położenie celu „{situation}”: dozwolone to {choices}"),
    T.BAND_BACKWARDS: ("the band {low}-{high} cm ends before it starts",
                       "przedział {low}–{high} cm kończy się, zanim się zaczyna"),
    T.BAND_OVERLAP: ("{weapon:key} already has {span}: a band from {low} to {high} cm would "
                     "overlap it",
                     "„{weapon}” ma już {span}: przedział od {low} do {high} cm by na niego "
                     "zachodził"),
    T.BAND_MISSES_RANGE: ("the band {low}-{high} cm does not hold the shot's {cm} cm",
                          "przedział {low}–{high} cm nie obejmuje odległości strzału {cm} cm"),

    # a tank running over figures and guns
    T.NOT_A_TANK: ("{label} is not a tank: only a hard or open-top vehicle runs over figures "
                   "and guns",
                   "{label} to nie czołg: figurki i działa rozjeżdża tylko pojazd opancerzony "
                   "lub odkryty"),
    T.OWN_SIDE_UNDER: ("{label} is on the tank's own side: a tank does not run over its own "
                       "pieces",
                       "{label} jest po stronie czołgu: czołg nie rozjeżdża własnych "
                       "jednostek"),
    T.VEHICLE_BLOCKS: ("{label} is a vehicle: other vehicles block a tank's move",
                       "{label} to pojazd: inne pojazdy blokują ruch czołgu"),
    T.RIDER_BLOCKS: ("{label} rides {vehicle}: the vehicle under it blocks the tank's move",
                     "{label} jedzie pojazdem {vehicle}: ten pojazd blokuje ruch czołgu"),
    T.HARD_COVER_BLOCKS: ("{label} is in hard cover: hard cover blocks the tank's move",
                          "{label} jest w twardej osłonie: twarda osłona blokuje ruch "
                          "czołgu"),
    T.GUN_RUN_OVER_WHOLE: ("{label} is a gun: it is run over whole, with its crew",
                           "{label} to działo: czołg rozjeżdża je w całości, z obsługą"),
    T.TOO_MANY_UNDER: ("{label} has {left:figure|figures} left: {count} cannot be under the "
                       "tank",
                       "{label} ma jeszcze {left:figurkę|figurki|figurek}: pod czołgiem nie "
                       "może być {count}"),
    T.RUNS_OVER_NOTHING: ("{label} runs over nothing: name the pieces under it",
                          "{label} niczego nie rozjeżdża: wskaż jednostki pod czołgiem"),
    T.NAMED_TWICE_UNDER: ("a piece is named twice under the tank: give each piece once, with "
                          "its number of figures",
                          "jednostka jest pod czołgiem dwa razy: podaj każdą raz, z liczbą "
                          "figurek"),

    # the end of a battle, and matches
    T.BATTLE_NOT_OVER: ("the battle is not over: both sides have pieces left and neither gave "
                        "up",
                        "bitwa trwa: obie strony mają jednostki i żadna się nie poddała"),
    T.NO_SUCH_BATTLE: ("a match has battles 1 and {battles}, not {number}",
                       "mecz ma bitwy 1 i {battles}, nie {number}"),
    T.MATCH_OVER: ("the match is over: both battles are recorded",
                   "mecz się skończył: obie bitwy są zapisane"),
    T.MATCH_INCOMPLETE: ("the match needs both battles: {recorded} of {battles} recorded",
                         "mecz potrzebuje obu bitew: zapisano {recorded} z {battles}"),
    T.TOO_MANY_BATTLES: ("a match has {battles} battles, the record holds {held}",
                         "mecz ma {battles:bitwę|bitwy|bitew}, a zapis zawiera {held}"),

    # Cobra
    C.UNIT_FORMAT: ("unit '{unit}': write its strength then modifier letters, like 12 or 6h",
                    "oddział „{unit}”: podaj siłę, a po niej litery modyfikatorów, np. 12 "
                    "albo 6h"),
    C.UNIT_UNKNOWN_MODIFIER: ("unit '{unit}': unknown modifier '{letter}'",
                              "oddział „{unit}”: nieznany modyfikator „{letter}”"),
    C.UNIT_MODIFIER_TWICE: ("unit '{unit}': a modifier may be given once per unit",
                            "oddział „{unit}”: każdy modyfikator podaje się raz"),
    C.NEEDS_A_UNIT: ("the {role} needs at least one unit",
                     "{role} potrzebuje co najmniej jednego oddziału"),
    C.UNIT_STRENGTH: ("unit {unit}: a printed strength is 1 to {most}",
                      "oddział {unit}: siła na żetonie to od 1 do {most}"),
    C.MODIFIER_WRONG_ROLE: ("unit {unit}: {modifier} applies only in {role}",
                            "oddział {unit}: {modifier} działa tylko w: {role}"),
    C.MODIFIER_WRONG_SIDE: ("unit {unit}: {modifier} is only for {nation} units",
                            "oddział {unit}: {modifier} dotyczy tylko oddziałów: {nation}"),
    C.SHIFT_COLUMNS: ("shift '{shift}': the columns are a whole number like -1 or +2",
                      "przesunięcie „{shift}”: kolumny to liczba całkowita, np. -1 albo +2"),
    C.SHIFT_FORMAT: ("shift '{shift}': write KIND:COLUMNS (like terrain:-1), or a terrain "
                     "named in the Cobra tables file",
                     "przesunięcie „{shift}”: napisz RODZAJ:KOLUMNY (np. terrain:-1) albo "
                     "teren z pliku tabel Cobry"),
    C.SHIFT_NOT_ALLOWED: ("shift {shift_kind} {columns:+d}: not allowed",
                          "przesunięcie {shift_kind} {columns:+d}: niedozwolone"),
    C.HQ_SHIFTS_TOO_EARLY: ("shift hq:+2 on game turn {turn}: two HQ shifts only from game "
                            "turn {first} (8.3.3a)",
                            "dwa przesunięcia sztabu dopiero od tury {first}, a jest tura "
                            "{turn} (8.3.3a)"),
    C.NO_AIR_IN_STORMS: ("no air points in storms (14.0b)",
                         "w czasie burz nie ma punktów lotnictwa (14.0b)"),
    C.NAVAL_IN_STORMS: ("in storms at most one naval point: +1 at most (14.4)",
                        "w czasie burz najwyżej jeden punkt marynarki: najwyżej +1 (14.4)"),
    C.SHIFT_TWICE: ("{shift_kind} is given twice for the same side: one {shift_kind} shift "
                    "per side",
                    "{shift_kind} podano dwa razy dla tej samej strony: jedno takie "
                    "przesunięcie na stronę"),
    C.SHIFTS_DISAGREE: ("shift {shift_kind} {columns:+d} means the {nation} side attacks, but "
                        "another shift says the {said} side does",
                        "przesunięcie {shift_kind} {columns:+d} znaczy, że atakują: {nation}, "
                        "a inne przesunięcie mówi, że: {said}"),
    C.TURN_OUT_OF_RANGE: ("game turn {turn}: Cobra's game turns are 1 to {last}",
                          "tura {turn}: tury Cobry to od 1 do {last}"),
    C.CARPET_SHIFTED: ("carpet bombing is never shifted left or right (14.3g)",
                       "nalotu dywanowego nigdy nie przesuwa się w lewo ani w prawo (14.3g)"),
    C.CARPET_TOO_EARLY: ("no carpet bombing before game turn {first} (14.3f)",
                         "nalot dywanowy dopiero od tury {first} (14.3f)"),
    C.CARPET_NOT_CLEAR: ("carpet bombing only in clear weather (14.3b)",
                         "nalot dywanowy tylko przy pogodnym niebie (14.3b)"),
    C.OVERRUN_TURN_1: ("no overruns on game turn 1 (17.3.3c)",
                       "w turze 1 nie ma przełamań (17.3.3c)"),
    C.OVERRUN_DOUBLED: ("unit {unit}: an overrun is at printed strength, not doubled for "
                        "divisional integrity (5.4.1a)",
                        "oddział {unit}: przełamanie idzie z siłą z żetonu, bez podwojenia za "
                        "integralność dywizji (5.4.1a)"),
    C.OVERRUN_UNSUPPLIED: ("unit {unit}: units out of supply may not overrun (5.4e, 10.6c)",
                           "oddział {unit}: oddziały bez zaopatrzenia nie przełamują (5.4e, "
                           "10.6c)"),
    C.OVERRUN_MODIFIER: ("unit {unit}: {modifier} does not apply to an overrun: printed "
                         "strength, halved only into marsh (5.4.1, 5.4.1b)",
                         "oddział {unit}: {modifier} nie działa przy przełamaniu: siła z "
                         "żetonu, połowa tylko na bagno (5.4.1, 5.4.1b)"),
    C.OVERRUN_NO_AIR: ("air points may not aid an overrun (14.2c)",
                       "punkty lotnictwa nie wspierają przełamania (14.2c)"),
    C.OVERRUN_ONE_HQ_SHIFT: ("an HQ gives an overrun one shift at most; only Patton gives two "
                             "(5.4.1c3, 5.4.1c5)",
                             "sztab daje przełamaniu najwyżej jedno przesunięcie; dwa daje "
                             "tylko Patton (5.4.1c3, 5.4.1c5)"),
    C.OVERRUN_ADVANCE_SHIFT: ("an overrun when advancing after combat takes only terrain and "
                              "supply: no {shift_kind:key} shift (5.4.1d)",
                              "przełamanie w pościgu po walce uwzględnia tylko teren i "
                              "zaopatrzenie: bez przesunięcia {shift_kind} (5.4.1d)"),
    C.CARPET_MISSIONS_SPENT: ("game turn {turn}: no carpet bombing mission left: one during "
                              "GT 5 to 14, two more from GT 15, one a game turn (14.3f)",
                              "tura {turn}: nie zostały żadne naloty dywanowe: jeden w turach "
                              "5–14, dwa kolejne od tury 15, jeden na turę (14.3f)"),
    C.NO_AIR_ON_TURN_1: ("the Allied player receives no AP on GT 1 (17.3.10)",
                         "w turze 1 Alianci nie dostają punktów lotnictwa (17.3.10)"),
    C.NAVAL_POINTS_TURN: ("game turn {turn} has {most} naval support points (14.4)",
                          "tura {turn} ma {most} pkt wsparcia marynarki (14.4)"),
    C.AIR_POINTS_LEFT: ("{left} air points left, this needs {need} (14.0, 14.1a)",
                        "zostało {left} pkt lotnictwa, potrzeba {need} (14.0, 14.1a)"),
    C.NAVAL_POINTS_LEFT: ("{left} naval support points left this game turn, this needs {need} "
                          "(14.4)",
                          "zostało {left} pkt wsparcia marynarki w tej turze, potrzeba {need} "
                          "(14.4)"),
    C.NOT_A_DIE_FACE: ("a die shows 1 to {faces}, not {die}",
                       "kość pokazuje od 1 do {faces}, nie {die}"),
    C.NO_TERRAIN: ("no terrain '{terrain}' in the Cobra tables: add it under [terrain] with "
                   "its shift from your Terrain Effects Chart (known: {known})",
                   "w tabelach Cobry nie ma terenu „{terrain}”: dopisz go w [terrain] z "
                   "przesunięciem z Tabeli efektów terenu (znane: {known})"),
    C.UNKNOWN_SCENARIO: ("unknown scenario '{scenario}': choose {choices}",
                         "nieznany scenariusz „{scenario}”: wybierz {choices}"),
    C.GAME_OVER: ("the game is over", "gra się skończyła"),
    C.WEATHER_FIRST: ("the weather phase needs the weather first (5.3)",
                      "w fazie pogody najpierw trzeba ustalić pogodę (5.3)"),
    C.WEATHER_PHASE_ONLY: ("the weather is found in the Weather & German Supply Phase (4.0)",
                           "pogodę ustala się w fazie pogody i zaopatrzenia Niemców (4.0)"),
    C.WEATHER_ALREADY: ("game turn {turn} already has its weather",
                        "tura {turn} ma już pogodę"),
    C.SUPPLY_PHASE_ONLY: ("Allied supply points come in the Allied Supply Phase (4.0)",
                          "punkty zaopatrzenia Aliantów przychodzą w fazie zaopatrzenia "
                          "Aliantów (4.0)"),
    C.UNKNOWN_TRACK: ("unknown track '{track}': choose {choices}",
                      "nieznany tor „{track}”: wybierz {choices}"),
    C.EXTENSION_ROLL_NEEDED: ("the end of game turn 27 needs the Allied die roll: 4-6 plays "
                              "game turn 28 (17.3a)",
                              "koniec tury 27 wymaga rzutu Aliantów: 4-6 to jeszcze tura 28 "
                              "(17.3a)"),
    C.UNKNOWN_WEATHER: ("weather '{weather}': allowed: clear, overcast, storm",
                        "pogoda „{weather}”: dozwolone: clear, overcast, storm"),
    C.WEATHER_HISTORY_NEEDED: ("game turn 6 needs the weather of turns 1 to 5: storms come "
                               "on turn 6 if none came before (5.3)",
                               "tura 6 wymaga pogody tur 1–5: burze przychodzą w turze 6, "
                               "jeśli nie było ich wcześniej (5.3)"),
    C.WEATHER_HISTORY_LONG: ("game turn {turn} has only {before} turns before it, but the "
                             "history names {named}",
                             "przed turą {turn} było tylko tur: {before}, a historia podaje: "
                             "{named}"),
    C.UNKNOWN_EXIT: ("an exit's {field} is one of {choices}, not '{value}'",
                     "wyjście z mapy: {field} to jedno z {choices}, nie „{value}”"),
    C.UNKNOWN_HQ: ("unknown HQ '{hq}': choose {choices}",
                   "nieznany sztab „{hq}”: wybierz {choices}"),
    C.HQ_ELIMINATED: ("{name} is eliminated (9.1e)", "{name} jest wyeliminowany (9.1e)"),
    C.HQ_INACTIVE: ("{name} is inactive: inactive HQs may not contribute shifts to a combat "
                    "(9.1i)",
                    "{name} jest nieaktywny: nieaktywne sztaby nie dają przesunięć w walce "
                    "(9.1i)"),
    C.HQ_SHIFTS_GIVEN: ("{name} has given {given} of its {most} shifts since it was flipped "
                        "active (8.3.3a)",
                        "{name} dał już {given} z {most} przesunięć od odwrócenia na stronę "
                        "aktywną (8.3.3a)"),
    C.HQ_OTHER_ARMY: ("{name} is a {army} HQ: it benefits only {army} units, and this attack "
                      "pays from the {paid} track (8.3.3d, 8.3.3e, 11.2)",
                      "{name} to sztab {army}: wspiera tylko oddziały {army}, a ten atak płaci "
                      "z toru {paid} (8.3.3d, 8.3.3e, 11.2)"),
    C.NO_GERMAN_LIMITS: ("only the Allied player has command limits (11.3)",
                         "limity dowodzenia ma tylko gracz aliancki (11.3)"),
    C.ATTACK_LIMIT: ("{army} attacks: {made} of {most} made this game turn, the command limit "
                     "(11.3)",
                     "ataki {army}: wykonano {made} z {most} w tej turze, to limit dowodzenia "
                     "(11.3)"),
    C.OVERRUN_LIMIT: ("{army} overruns: {made} of {most} made this game turn, the command "
                      "limit (11.3)",
                      "przełamania {army}: wykonano {made} z {most} w tej turze, to limit "
                      "dowodzenia (11.3)"),
    C.COMMAND_LEVEL: ("a command level is 0 to {most}, not {level}",
                      "poziom dowodzenia to od 0 do {most}, nie {level}"),
    # victory points and the special rolls (15.0, 16.0, 18.0)
    C.VP_UNKNOWN_SOURCE: ("unknown victory point source '{vp_source:key}': choose {choices}",
                          "nieznane źródło punktów zwycięstwa „{vp_source:key}”: wybierz "
                          "{choices}"),
    C.VP_NOT_IN_SCENARIO: ("{vp_source}: not in the {scenario} scenario ({article})",
                           "{vp_source}: nie w scenariuszu {scenario} ({article})"),
    C.VP_NOT_THIS_TURN: ("{vp_source}: game turn {first} to {last}, not {turn} ({article})",
                         "{vp_source}: tury od {first} do {last}, nie {turn} ({article})"),
    C.VP_ONCE_A_TURN: ("{vp_source}: already scored in game turn {turn} ({article})",
                       "{vp_source}: już zapisane w turze {turn} ({article})"),
    C.VP_ONCE_A_GAME: ("{vp_source}: already scored, in game turn {turn} ({article})",
                       "{vp_source}: już zapisane, w turze {turn} ({article})"),
    C.VP_MOST: ("{vp_source}: {most} VP at most ({article})",
                "{vp_source}: najwyżej {most} PZw ({article})"),
    C.VP_ONE_AT_A_TIME: ("{vp_source}: one at a time, not {count} ({article})",
                         "{vp_source}: po jednym, nie {count} ({article})"),
    C.VP_HQ_EXITED: ("a US HQ exited off the west edge on game turn {turn} (16.1)",
                     "sztab USA zszedł z mapy zachodnią krawędzią w turze {turn} (16.1)"),
    C.VP_NOTHING_TO_UNDO: ("no victory points reported to take back",
                           "brak zapisanych punktów zwycięstwa do cofnięcia"),
    C.RELEASE_NOT_YET: ("the 15th Army may be asked from game turn {first}, not {turn} (15.2)",
                        "o 15. Armię można prosić od tury {first}, nie {turn} (15.2)"),
    C.RELEASE_ONCE_A_TURN: ("one attempt each game turn: game turn {turn} has had its (15.2b)",
                            "jedna próba na turę: tura {turn} już ją miała (15.2b)"),
    C.RELEASE_ALL_OUT: ("the four divisions of the 15th Army are all released (15.2e)",
                        "wszystkie cztery dywizje 15. Armii są już zwolnione (15.2e)"),
    C.BREST_NOT_YET: ("the 2nd FJ Division is rolled for from game turn 26, not {turn} (15.3a)",
                      "na 2. Dywizję Spadochronową rzuca się od tury 26, nie {turn} (15.3a)"),
    C.BREST_US_EXITED: ("a US unit exited off the west edge on game turn {turn}: no roll for "
                        "Brest (15.3)",
                        "oddział USA zszedł z mapy zachodnią krawędzią w turze {turn}: bez "
                        "rzutu na Brest (15.3)"),
    C.BREST_RELEASED: ("the 2nd FJ Division came in on game turn {turn} (15.3)",
                       "2. Dywizja Spadochronowa weszła do gry w turze {turn} (15.3)"),
    C.LECLERC_MUTINIED: ("Leclerc mutinied on game turn {turn}: the division heads for Paris "
                         "(15.1b)",
                         "Leclerc zbuntował się w turze {turn}: dywizja rusza na Paryż "
                         "(15.1b)"),
    C.SPECIAL_ONCE_A_TURN: ("this roll is made once in game turn {turn}",
                            "ten rzut wykonuje się raz w turze {turn}"),
    C.UNKNOWN_MOVEMENT: ("a unit's {field} is one of {choices}, not '{value}'",
                         "ruch oddziału: {field} to jedno z {choices}, nie „{value}”"),
    C.MA_PRINTED: ("a printed MA is 1 to {most}, not {printed}",
                   "punkty ruchu z żetonu to od 1 do {most}, nie {printed}"),
    C.NOT_MECHANIZED: ("only mechanized units move in the Mechanized Movement Phase (4.0, 5.2); "
                       "British and Canadian infantry two thirds of their MA (5.2c)",
                       "w fazie ruchu zmechanizowanego ruszają się tylko oddziały "
                       "zmechanizowane (4.0, 5.2); piechota brytyjska i kanadyjska za dwie "
                       "trzecie punktów ruchu (5.2c)"),
    C.MA_NEEDS_WEATHER: ("a German unit's MA needs the weather (5.3b)",
                         "punkty ruchu Niemców zależą od pogody (5.3b)"),
    C.MA_INCREASE_TOO_MUCH: ("an increase of {increase:third|thirds} would take the MA above "
                             "the printed MA: {most} at most (5.3d)",
                             "zwiększenie o {increase:trzecią|trzecie|trzecich} przekroczyłoby "
                             "punkty ruchu z żetonu: najwyżej {most} (5.3d)"),
    C.MA_ALREADY_FULL: ("the MA is already the full printed MA: nothing to increase (5.3d)",
                        "punkty ruchu są już pełne, jak na żetonie: zwiększenie niemożliwe "
                        "(5.3d)"),
    C.MA_INCREASE_GERMAN_ONLY: ("only German units increase their MA, in overcast or clear "
                                "weather (5.3d)",
                                "tylko Niemcy zwiększają punkty ruchu, przy pochmurnym lub "
                                "pogodnym niebie (5.3d)"),
    C.MA_INCREASE_THIRDS: ("an MA increase is one or two thirds, not {increase} (5.3d)",
                           "punkty ruchu zwiększa się o jedną lub dwie trzecie, nie {increase} "
                           "(5.3d)"),
    C.UNKNOWN_REPLACEMENT: ("a replacement's {field} is one of {choices}, not '{value}'",
                            "uzupełnienie: {field} to jedno z {choices}, nie „{value}”"),
    C.BRITISH_INFANTRY_LIMIT: ("from game turn {first} the British replace no more than "
                               "{most} infantry steps a turn (12.2)",
                               "od tury {first} Brytyjczycy uzupełniają najwyżej {most} "
                               "stopnie piechoty na turę (12.2)"),
    C.REPLACEMENT_TURN_LIMIT: ("no more than one mechanized or two infantry steps may be used "
                               "in a game turn (12.2d)",
                               "w jednej turze najwyżej jeden stopień zmechanizowany albo dwa "
                               "stopnie piechoty (12.2d)"),
    C.NO_REPLACEMENT_STEP: ("game turn {turn}: {on_track} {step_kind:key} step on the German "
                            "replacement track, a whole step is needed (12.2)",
                            "tura {turn}: na niemieckim torze uzupełnień {on_track} stopnia "
                            "({step_kind}), potrzeba całego (12.2)"),
    C.REPLACEMENT_PHASE_ONLY: ("replacements are taken in the side's own Replacement Phase "
                               "(12.0)",
                               "uzupełnienia bierze się we własnej fazie uzupełnień (12.0)"),
    C.HQ_COLUMNS_MOST: ("{name} gives at most {most:column|columns} to one combat: two only to "
                        "an Allied attack from game turn 17 (8.3.3a)",
                        "{name} daje najwyżej {most:kolumnę|kolumny|kolumn} jednej walce: dwie "
                        "tylko atakowi Aliantów od tury 17 (8.3.3a)"),
    C.NOT_A_SCENARIO_TURN: ("the {scenario} scenario plays game turns {first} to {last}, not "
                            "{turn} (2.5, 17.0)",
                            "scenariusz {scenario} to tury od {first} do {last}, nie {turn} "
                            "(2.5, 17.0)"),
    C.EXIT_AFTER_TURN: ("an exit is recorded on game turn {exited}, after game turn {turn}",
                        "wyjście z mapy zapisane w turze {exited}, po turze {turn}"),
    C.NO_STEP_TO_TAKE_BACK: ("no replacement step taken in this phase to take back (12.0)",
                             "w tej fazie nie wzięto stopnia uzupełnień do cofnięcia (12.0)"),
    C.UNKNOWN_LANDING_TARGET: ("unknown landing target '{landing}': choose {choices} (17.3.2)",
                               "nieznany cel lądowania „{landing}”: wybierz {choices} "
                               "(17.3.2)"),
    C.NOT_A_PARATROOP_DIVISION: ("{landing:key} is a beach: paratroop units are of the 6th, "
                                 "82nd or 101st Airborne Divisions (17.3.2 step 2)",
                                 "{landing} to plaża: spadochroniarze są z 6., 82. albo 101. "
                                 "dywizji powietrznodesantowej (17.3.2 krok 2)"),
    C.ALL_PARATROOPS_DROPPED: ("all {most} paratroop units have dropped (17.3.2 step 1a)",
                               "wszystkie oddziały spadochronowe ({most}) już wylądowały "
                               "(17.3.2 krok 1a)"),
    C.LANDING_SHIFT_WRONG_TARGET: ("{landing:key}: a beach shifts for the German steps "
                                   "committed, a paratroop unit for its terrain (17.3.2 step "
                                   "4b3)",
                                   "{landing}: plaża przesuwa się o stopnie Niemców skierowane "
                                   "do obrony, spadochroniarze o swój teren (17.3.2 krok 4b3)"),
    C.LANDING_SHIFT_RANGE: ("committed steps are 0 or more, a terrain shift 0 to -5 (17.3.2 "
                            "step 4b3, 8.3.2)",
                            "skierowanych stopni jest 0 lub więcej, przesunięcie za teren od 0 "
                            "do -5 (17.3.2 krok 4b3, 8.3.2)"),
    C.NOT_A_BEACH: ("{landing:key} is not a beach: choose utah, omaha, gold, juno, sword "
                    "(17.3.2 step 5)",
                    "{landing} to nie plaża: wybierz Utah, Omaha, Gold, Juno, Sword (17.3.2 "
                    "krok 5)"),
    C.BEACH_STEPS: ("{lost} steps lost of {landed} landed: a beach has 1 or more steps landed "
                    "and lost 0 to all of them (17.3.2 step 5a)",
                    "stracono {lost} z {landed} wysadzonych stopni: na plażę schodzi 1 lub "
                    "więcej stopni, a traci się od 0 do wszystkich (17.3.2 krok 5a)"),
    C.BEACH_ALREADY_ABANDONED: ("{landing:key} is abandoned already: 10 VP for each beach "
                                "(17.3.2 step 5e)",
                                "{landing} jest już opuszczona: 10 PZw za każdą plażę (17.3.2 "
                                "krok 5e)"),
    C.WITHDRAWAL_STEPS: ("a unit being withdrawn has 1 step or more, not {steps} (17.3.4)",
                         "wycofywany oddział ma 1 stopień lub więcej, nie {steps} (17.3.4)"),
}

W = Why
SUPPLY_EN, SUPPLY_PL = "US +{us}, British +{british}: ", "USA +{us}, Bryt. +{british}: "
VICTORY_EN = "{start}, Allied VP {allied} − German VP {german} = {difference:+d}: "
VICTORY_PL = "{start}, PZw Aliantów {allied} − PZw Niemców {german} = {difference:+d}: "
NOTES: dict[Why, tuple[str, str]] = {
    W.TURN_1_CLEAR: ("game turn 1 is always clear (5.3)", "tura 1 jest zawsze pogodna (5.3)"),
    W.TURN_2_OVERCAST: ("game turn 2 is always overcast (5.3)",
                        "tura 2 jest zawsze pochmurna (5.3)"),
    W.AFTER_THREE_STORMS: ("after three storm turns in a row the weather is overcast (5.3a)",
                           "po trzech turach burz z rzędu jest pochmurno (5.3a)"),
    W.TURN_6_STORMS: ("no storm on turns 1 to 5: game turn 6 is storms (5.3)",
                      "w turach 1–5 nie było burz: w turze 6 są burze (5.3)"),
    W.GERMAN_SUPPLY: ("German attack supply +{gain} in {weather:key} weather (11.0d)",
                      "zaopatrzenie ataku Niemców +{gain}, pogoda: {weather} (11.0d)"),
    W.GERMAN_SUPPLY_STOPS: ("German attack supply +{gain} in {weather:key} weather (11.0d); the "
                            "track stops at {most} (11.0c)",
                            "zaopatrzenie ataku Niemców +{gain}, pogoda: {weather} (11.0d); "
                            "tor kończy się na {most} (11.0c)"),
    W.NO_SUPPLY_LANDING: (SUPPLY_EN + "no Allied supply points on game turns 1 and 2 (17.3)",
                          SUPPLY_PL + "w turach 1 i 2 Alianci nie dostają punktów "
                          "zaopatrzenia (17.3)"),
    W.NO_SUPPLY_FIRST_STORM: (SUPPLY_EN + "the first storm turn brings no Allied supply "
                              "points (11.1b)",
                              SUPPLY_PL + "pierwsza tura burz nie daje Aliantom punktów "
                              "zaopatrzenia (11.1b)"),
    W.HALF_SUPPLY_STORM: (SUPPLY_EN + "half, rounded up, in storms (11.1b)",
                          SUPPLY_PL + "podczas burz połowa, zaokrąglona w górę (11.1b)"),
    W.SUPPLY_AS_PRINTED: (SUPPLY_EN + "as printed on the turn record track (11.1a)",
                          SUPPLY_PL + "tyle, ile na torze tur (11.1a)"),
    W.READ_PRINTED_CRT: ("read column {column}, die {die} on your printed CRT",
                         "odczytaj kolumnę {column}, kość {die} w wydrukowanej tabeli walki"),
    W.SPLIT_RESULT: ("Split result: the attacker takes his result first, then the defender; "
                     "the defender may not advance, and an overrun stops (8.6c, 8.6e)",
                     "Wynik dzielony: najpierw atakujący, potem obrońca; obrońca nie wkracza, "
                     "a przełamanie się zatrzymuje (8.6c, 8.6e)"),
    W.ATTACKER_ELIMINATED: ("Attacker: every attacking step is lost, no retreat (8.6a)",
                            "Atakujący: traci wszystkie stopnie, bez odwrotu (8.6a)"),
    W.ATTACKER_NO_EFFECT: ("Attacker: no effect", "Atakujący: bez efektu"),
    W.ATTACKER_ONE_STEP: ("Attacker: lose 1 step; the attacker always takes at least one as a "
                          "step (8.6b5)",
                          "Atakujący: traci 1 stopień; atakujący zawsze bierze co najmniej "
                          "jeden jako stopień (8.6b5)"),
    W.ATTACKER_STEPS: ("Attacker: {steps}: lose at least 1 step (8.6b5); each other one is a "
                       "step or a hex of retreat (8.6b1). If the attacker retreats 1 hex or "
                       "more, the defender's result drops by one (8.6b4)",
                       "Atakujący: {steps}: traci co najmniej 1 stopień (8.6b5); każdy inny to "
                       "stopień albo heks odwrotu (8.6b1). Gdy atakujący cofnie się o 1 heks "
                       "lub więcej, wynik obrońcy spada o jeden (8.6b4)"),
    W.DEFENDER_ELIMINATED: ("Defender: every defending step is lost",
                            "Obrońca: traci wszystkie stopnie"),
    W.DEFENDER_NO_EFFECT: ("Defender: no effect", "Obrońca: bez efektu"),
    W.DEFENDER_CARPET: ("Defender: lose {steps:step|steps}: carpet bombing losses are all "
                        "steps, no retreats (14.3g)",
                        "Obrońca: traci {steps:stopień|stopnie|stopni}: straty od nalotu "
                        "dywanowego to same stopnie, bez odwrotu (14.3g)"),
    W.DEFENDER_STEPS: ("Defender: {steps}: lose steps and/or retreat; each hex retreated "
                       "satisfies one step (8.6b1). Retreat is optional (8.7)",
                       "Obrońca: {steps}: traci stopnie lub się cofa; każdy heks odwrotu to "
                       "jeden stopień (8.6b1). Odwrót nie jest obowiązkowy (8.7)"),
    W.AT_LEAST_ONE_STEP: ("More than 2: at least one must be a step loss (8.6b3)",
                          "Więcej niż 2: co najmniej jeden to utrata stopnia (8.6b3)"),
    W.WHOLE_STACK: ("Steps come from the whole stack: every unit loses one before any loses a "
                    "second (8.6b2)",
                    "Stopnie traci cały stos: każdy oddział traci jeden, zanim któryś straci "
                    "drugi (8.6b2)"),
    W.NO_RETREAT_IS_A_STEP: ("A hex that cannot be retreated is a step instead (8.7a)",
                             "Heks, o który nie można się cofnąć, to zamiast tego stopień "
                             "(8.7a)"),
    W.OVERRUN_READ: ("Overrun: a loss or a retreat for the overrunning units, or a split "
                     "result, halts them for the phase (5.4.3); if the hex is vacated, they "
                     "must all move into it (5.4.2)",
                     "Przełamanie: strata lub odwrót przełamujących albo wynik dzielony "
                     "zatrzymuje ich do końca fazy (5.4.3); gdy heks opustoszeje, wszyscy "
                     "muszą na niego wejść (5.4.2)"),
    W.OVERRUN_SPLIT: ("Overrun: a split result halts it: the overrunning units stay out of the "
                      "hex, take their loss in place, the first hit as a step, and move no "
                      "more this phase (5.4.3a)",
                      "Przełamanie: wynik dzielony je zatrzymuje: przełamujący nie wchodzą na "
                      "heks, ponoszą stratę na miejscu, pierwszą jako stopień, i do końca "
                      "fazy stoją (5.4.3a)"),
    W.OVERRUN_HALTED: ("Overrun: the overrunning units take a loss, so they halt for the "
                       "phase; their first hit is a step loss, not a retreat (5.4.3b)",
                       "Przełamanie: przełamujący ponoszą stratę, więc stoją do końca fazy; "
                       "pierwsze trafienie to utrata stopnia, nie odwrót (5.4.3b)"),
    W.OVERRUN_VACATED: ("Overrun: the hex is vacated: every overrunning unit must move into it "
                        "(5.4.2); in the Initial Movement Phase they may go on with the MP "
                        "left, if not in an EZOC (5.4.2a)",
                        "Przełamanie: heks opustoszał: każdy przełamujący musi na niego wejść "
                        "(5.4.2); w fazie ruchu może iść dalej za pozostałe PR, jeśli nie "
                        "stoi w strefie kontroli wroga (5.4.2a)"),
    W.OVERRUN_IF_VACATED: ("Overrun: if the defender leaves the hex vacant, every overrunning "
                           "unit must move into it (5.4.2); if the hex is still held, they "
                           "halt for the phase (5.4.3)",
                           "Przełamanie: jeśli obrońca opuści heks, każdy przełamujący musi "
                           "na niego wejść (5.4.2); jeśli heks jest nadal zajęty, stoją do "
                           "końca fazy (5.4.3)"),
    W.OVERRUN_FAILED: ("Overrun: the hex is still held: the overrunning units halt for the "
                       "phase (5.4.3)",
                       "Przełamanie: heks nadal zajęty: przełamujący stoją do końca fazy "
                       "(5.4.3)"),
    W.VICTORY_TOWARD_ALLIES: (VICTORY_EN + "{levels:level|levels} toward the Allies (16.3.3)",
                              VICTORY_PL + "{levels:poziom|poziomy|poziomów} w stronę "
                              "Aliantów (16.3.3)"),
    W.VICTORY_TOWARD_GERMANS: (VICTORY_EN + "{levels:level|levels} toward the Germans "
                               "(16.3.3)",
                               VICTORY_PL + "{levels:poziom|poziomy|poziomów} w stronę "
                               "Niemców (16.3.3)"),
    W.VICTORY_AS_FRONTLINE: (VICTORY_EN + "0 levels (16.3.3)",
                             VICTORY_PL + "poziom bez zmian (16.3.3)"),
    W.REPLACEMENT_VP: ("{steps} Allied replacement steps: German VP +1 (16.1)",
                       "{steps} stopni uzupełnień Aliantów: PZw Niemców +1 (16.1)"),
    W.PARA_LANDED: ("Die {die}: no scatter, the unit lands in the hex on its counter; it "
                    "scatters on {span} (17.3.2 step 2)",
                    "Kość {die}: bez rozrzutu, oddział ląduje na heksie z żetonu; rozrzut "
                    "przy {span} (17.3.2 krok 2)"),
    W.PARA_SCATTERED: ("Die {die}: move the unit one hex {direction:key} (17.3.2 step 2c)",
                       "Kość {die}: przesuń oddział o jeden heks: {direction} (17.3.2 krok "
                       "2c)"),
    W.PARA_READ_DIAGRAM: ("Die {die}: move the unit one hex as the Scatter Diagram on map B "
                          "shows for {die} (17.3.2 step 2c)",
                          "Kość {die}: przesuń oddział o jeden heks tak, jak wykres "
                          "rozrzutu na planszy B pokazuje dla {die} (17.3.2 krok 2c)"),
    W.PARA_STEP_LOSS: ("On a beach or coastal hex, or stacked with Allied units over the "
                       "limit, it loses one step (17.3.2 step 3a)",
                       "Na heksie plaży lub wybrzeża albo w zbyt dużym stosie z "
                       "oddziałami Aliantów traci jeden stopień (17.3.2 krok 3a)"),
    W.PARA_GERMAN_ATTACK: ("Into a German unit: that unit attacks it at its combat strength "
                           "against 1, no shifts; if it survives, the Allied player places it "
                           "in an adjacent hex free of German units (17.3.2 step 3b)",
                           "Na oddział niemiecki: ten atakuje go swoją siłą przeciw 1, bez "
                           "przesunięć; jeśli przetrwa, gracz aliancki stawia go na sąsiednim "
                           "heksie bez Niemców (17.3.2 krok 3b)"),
    W.COMMIT_NONE: ("Die {die}: this unit cannot contribute to the beach defence (17.3.2 "
                    "step 4a1)",
                    "Kość {die}: ten oddział nie może bronić plaży (17.3.2 krok 4a1)"),
    W.COMMIT_STEPS: ("Die {die}: say now how many of its steps defend which one beach hex: "
                     "each shifts that hex's landing attrition one column right and is "
                     "removed from the unit (17.3.2 step 4a2, 4a3)",
                     "Kość {die}: powiedz teraz, ile jego stopni broni którego jednego heksu "
                     "plaży: każdy przesuwa wykrwawienie tego heksu o kolumnę w prawo i "
                     "schodzi z oddziału (17.3.2 krok 4a2, 4a3)"),
    W.ATTRITION_READ: ("The defender's part is Allied steps lost, no retreat; the German "
                       "units are not affected (17.3.2 step 4b4)",
                       "Część obrońcy to stopnie tracone przez Aliantów, bez odwrotu; "
                       "Niemców wynik nie dotyczy (17.3.2 krok 4b4)"),
    W.ATTRITION_ELIMINATED: ("Allied: every step of the target is lost; the German units are "
                             "not affected (17.3.2 step 4b4)",
                             "Alianci: cel traci wszystkie stopnie; Niemców wynik nie dotyczy "
                             "(17.3.2 krok 4b4)"),
    W.ATTRITION_STEPS: ("Allied: lose {steps:step|steps}, no retreat; the German units are "
                        "not affected (17.3.2 step 4b4)",
                        "Alianci: tracą {steps:stopień|stopnie|stopni}, bez odwrotu; Niemców "
                        "wynik nie dotyczy (17.3.2 krok 4b4)"),
    W.ATTRITION_NO_LOSS: ("Allied: no loss; the German units are not affected (17.3.2 step "
                          "4b4)",
                          "Alianci: bez strat; Niemców wynik nie dotyczy (17.3.2 krok 4b4)"),
    W.BEACH_MARKER: ("Put a beach shift marker on the hex, one column for each step lost "
                     "there: Allied attacks from it shift left by it until they advance out "
                     "(17.3.2 step 5f)",
                     "Połóż na heksie znacznik przesunięcia plaży, kolumna za każdy stracony "
                     "tam stopień: ataki Aliantów z niego idą o tyle w lewo, aż wyjdą z niego "
                     "w pościgu (17.3.2 krok 5f)"),
    W.BEACH_ABANDONED: ("{lost} of {landed} steps lost, more than half: the beach is "
                        "abandoned. Remove its units from play (no VP for them); German +10 "
                        "VP; its reinforcements land on another beach (17.3.2 step 5a-e)",
                        "Stracono {lost} z {landed} stopni, ponad połowę: plaża opuszczona. "
                        "Jej oddziały schodzą z gry (bez PZw za nie); Niemcy +10 PZw; jej "
                        "posiłki lądują na innej plaży (17.3.2 krok 5a-e)"),
    W.BEACH_HELD: ("{lost} of {landed} steps lost, not more than half: the beach is held "
                   "(17.3.2 step 5a)",
                   "Stracono {lost} z {landed} stopni, nie więcej niż połowę: plaża "
                   "utrzymana (17.3.2 krok 5a)"),
    W.WITHDRAWAL_READ: ("The defender's part is steps, not retreats; the German units are "
                        "not affected. Destroyed, the unit counts for VP; else it is withdrawn "
                        "(17.3.4a-c)",
                        "Część obrońcy to stopnie, nie odwrót; Niemców wynik nie dotyczy. "
                        "Zniszczony oddział liczy się do PZw; inaczej schodzi z mapy "
                        "(17.3.4a-c)"),
    W.WITHDRAWAL_STEPS: ("The withdrawing unit loses {steps:step|steps}, as steps, not "
                         "retreats; the German units are not affected (17.3.4a)",
                         "Wycofywany oddział traci {steps:stopień|stopnie|stopni}, jako "
                         "stopnie, nie odwrót; Niemców wynik nie dotyczy (17.3.4a)"),
    W.WITHDRAWAL_DESTROYED: ("The unit is destroyed: it goes to the Destroyed Units Box and "
                             "counts for VP instead of being withdrawn (17.3.4b)",
                             "Oddział zniszczony: trafia do pola zniszczonych oddziałów i "
                             "liczy się do PZw zamiast zejść z mapy (17.3.4b)"),
    W.WITHDRAWAL_IF_DESTROYED: ("If that destroys it, it counts for VP; else it is withdrawn "
                                "(17.3.4b, 17.3.4c)",
                                "Jeśli to go niszczy, liczy się do PZw; inaczej schodzi z "
                                "mapy (17.3.4b, 17.3.4c)"),
    W.WITHDRAWAL_SURVIVES: ("The unit survives: it is withdrawn, no VP to the German player "
                            "(17.3.4c)",
                            "Oddział przetrwał: schodzi z mapy, Niemcy nie dostają PZw "
                            "(17.3.4c)"),
}


@dataclass(frozen=True)
class Word:
    """A value that is a word of the rules: {field} in the language's words, {field:key} as
    the rules (and the files) write it."""

    key: str
    said: str

    def __format__(self, spec: str) -> str:
        return self.key if spec == "key" else self.said

    def __str__(self) -> str:
        return self.said


def word(name: str, value: str, t: Translate, worded: Mapping[str, str] = WORDED) -> str:
    """A value that is a word of the rules (its name is in `worded`, with the prefix of its
    keys) in the words `t` gives; a name as it is."""
    prefix = worded.get(name)
    if prefix is None:
        return value
    key = prefix + (value.lower() if name.startswith("weapon") else value)
    return t(key) if key in i18n.STRINGS else value


def value(name: str, given: Value, language: str, t: Translate,
          worded: Mapping[str, str] = WORDED, names: Mapping[str, str] | None = None) -> object:
    """A value named `name` for a template of `language`: a word, a name (a card's title or
    name in the language's words, from `names`), a number or a list of them."""
    if isinstance(given, tuple):
        return Listed(tuple(word(name, v, t, worded) for v in given), language)
    if name == "source":              # the file a card or table came from, if any
        return f" ({given})" if given else ""
    if isinstance(given, str):
        return Word(given, (names or {}).get(given) or word(name, given, t, worded))
    return Number(given, language)


# What a screen says in the box's words: a refusal of the rules (any exception) or a game's note.
Said = BaseException | Note


def say(language: str, said: Said, names: Mapping[str, str] | None = None) -> str:
    """A refusal of the rules or a Cobra note in the language's words, from its code and
    values (the cards' titles and names the rules give as `names` has them in the
    language); any other exception as its own message."""
    if isinstance(said, Note):
        return _filled(language, NOTES[said.why], said.values, names)
    if isinstance(said, RulesError):
        return _filled(language, TEMPLATES[said.code], said.values, names)
    return str(said)


def _filled(language: str, templates: tuple[str, str], values: Mapping[str, Value],
            names: Mapping[str, str] | None = None) -> str:
    english, polish = templates
    template = polish if language == "pl" else english
    t = partial(i18n.text, language)
    return template.format(**{name: value(name, said, language, t, names=names)
                              for name, said in values.items()})
