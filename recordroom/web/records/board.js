// A sheet as the table screen shows it, to be read from a sofa: the crew slots with their side
// colours and points, then one line per area (how far it is, what it scores), every word and icon
// at least 0.9rem. The full drawing stays on the players' own screens.
//
// tableBoard(ed, board, {label}) -> <div class="tboard">
import { el } from "/static/common/client.js";
import { t } from "/static/common/i18n.js";
import { lockIcon } from "./sheet.js";
import { AREA_NAMES, BONUS, bonusWords, colourName, colourOf, ROLE_NAMES } from "./words.js";

const SHORT_ROLE = Object.fromEntries(
  ["singer", "musician", "producer", "backstage"].map((role) => [
    role,
    t(`rec.board.short.${role}`),
  ]),
);

/** A bonus as a round coloured icon with its glyph; its name for a screen reader and a hover. */
export function bonusChip(name, done = false) {
  if (!name) return null;
  const [kind, colour] = name.split(":");
  const info = BONUS[kind] || { glyph: "?", tint: "#777" };
  return el(
    "span",
    {
      class: `tb-icon${done ? " done" : ""}`,
      title: t("rec.board.bonus", { bonus: bonusWords(name) }),
      "data-bonus": name,
      style: { background: colour ? colourOf(colour) : info.tint },
    },
    info.glyph,
  );
}

function crewGrid(ed, board) {
  const columns = Math.max(...ed.crew.map((c) => c.column)) + 1;
  const grid = el("div", {
    class: "tb-crew",
    style: { "grid-template-columns": `repeat(${columns}, minmax(0, 1fr))` },
  });
  ed.crew.forEach((slot, i) => {
    const placed = board.crew[i];
    const lifted = slot.cash !== null && board.cash_lifted.includes(ed.restrictions[slot.cash]);
    const style = { "grid-row": String(slot.row + 1), "grid-column": String(slot.column + 1) };
    let inner;
    if (placed) {
      const card = ed.cards[placed.card];
      const sides = slot.role === "singer" ? Array(4).fill(board.lead_singer) : card.sides;
      ["top", "right", "bottom", "left"].forEach((side, k) => {
        style[`border-${side}-color`] = colourOf(sides[k]);
      });
      inner = [
        el("b", { class: "tb-points" }, String(card.points * placed.multiplier)),
        placed.multiplier > 1 ? el("span", { class: "tb-times" }, `×${placed.multiplier}`) : null,
      ];
    } else {
      inner = [
        el("span", { class: "tb-role" }, SHORT_ROLE[slot.role] || slot.role),
        slot.cash !== null && !lifted ? lockIcon(false) : bonusChip(slot.bonus),
      ];
    }
    grid.append(
      el(
        "div",
        {
          class: `tb-slot${placed ? " placed" : ""}${slot.cash !== null && !lifted ? " locked" : ""}`,
          title: placed
            ? t("rec.board.slot_points", {
                role: ROLE_NAMES[slot.role],
                count: ed.cards[placed.card].points * placed.multiplier,
              })
            : t("rec.board.slot_empty", { role: ROLE_NAMES[slot.role] }),
          style,
        },
        inner,
      ),
    );
  });
  return grid;
}

function line(area, what, points) {
  return el(
    "div",
    { class: "tb-area", "data-area": area },
    el("span", { class: "tb-name" }, AREA_NAMES[area]),
    el("span", { class: "tb-what" }, what),
    points === null ? null : el("b", { class: "tb-area-points" }, String(points)),
  );
}

function nextStep(ed, board) {
  const step = ed.tour[board.tour];
  if (!step) return null;
  const locked = step.cash !== null && !board.cash_lifted.includes(ed.restrictions[step.cash]);
  return locked ? lockIcon(false) : bonusChip(step.bonus);
}

/** One player's sheet in large print. */
export function tableBoard(ed, board, options = {}) {
  const b = board.breakdown;
  const placed = board.crew.filter(Boolean).length;
  const spent = new Set(board.multipliers.spent);
  return el(
    "div",
    {
      class: "tboard",
      role: "group",
      "aria-label": options.label || t("rec.sheet.label"),
      style: board.lead_singer ? { "--lead": colourOf(board.lead_singer) } : {},
    },
    crewGrid(ed, board),
    el(
      "div",
      { class: "tb-areas" },
      line("crew", t("rec.board.of", { n: placed, total: ed.crew.length }), b.crew),
      line(
        "tour",
        [
          t("rec.board.step", { n: board.tour, total: ed.tour.length }),
          nextStep(ed, board)
            ? el("span", { class: "tb-next" }, ` ${t("rec.board.next")} `, nextStep(ed, board))
            : null,
        ],
        b.tour,
      ),
      line(
        "release",
        [bonusChip("album"), ` ${board.albums} × `, bonusChip("single"), ` ${board.singles}`],
        b.release,
      ),
      line(
        "harmonies",
        ed.colours.map((colour) =>
          el(
            "span",
            {
              class: "tb-icon tb-count",
              title: t("rec.board.harmonies", { colour: colourName(colour) }),
              style: { background: colourOf(colour) },
            },
            String((board.harmonies[colour] || []).length),
          ),
        ),
        b.harmonies,
      ),
      line(
        "agenda",
        [
          bonusChip("agenda"),
          ` ${t("rec.board.of", { n: board.agenda.length, total: ed.agenda.rows * ed.agenda.columns })}`,
        ],
        null,
      ),
      line(
        "assets",
        [
          bonusChip("asset"),
          ` ${t("rec.board.of", { n: board.assets.length, total: ed.assets.boxes })}`,
        ],
        null,
      ),
      line(
        "multiplier",
        ed.multipliers.map((value, i) =>
          el(
            "span",
            {
              class: `tb-mult${i < board.multipliers.earned ? " earned" : ""}${spent.has(i) ? " spent" : ""}`,
              title: spent.has(i)
                ? t("rec.mult.used", { value })
                : i < board.multipliers.earned
                  ? t("rec.mult.ready", { value })
                  : t("rec.mult.not_earned", { value }),
            },
            `×${value}`,
          ),
        ),
        null,
      ),
      line("fail", t("rec.board.of", { n: board.fails, total: ed.fail.penalties.length }), b.fail),
      line("goals", t("rec.board.of", { n: board.goals.length, total: ed.goal_boxes }), b.goals),
    ),
  );
}
