// The player sheet, drawn from the edition: ten areas, each an SVG generated from the edition's
// lists (boxes, bonuses, prices), so nothing is placed box by box. A board of the view fills it in.
//
// drawSheet(ed, board, {targets, preview, onTarget, small, label}) -> <div class="sheet">
//   targets: Map key -> label of places the player can tap now ("crew:3", "agenda:4",
//            "assets:0", "harmony:5", "cash:2", "fail"); preview: Set of keys to outline only.

import { el, listen } from "/static/common/client.js";
import { has, t } from "/static/common/i18n.js";
import {
  AREA_NAMES,
  BONUS,
  bonusWords,
  colourName,
  colourOf,
  goalName,
  ROLE_NAMES,
  SCORING,
} from "./words.js";

/** A name cut to fit under a goal box (ten characters at most). */
const shortName = (name) => (name.length > 10 ? `${name.slice(0, 9)}…` : name);

/** An agenda line's short label under the grid ("row 1", "col 2", "diagonal") in words. */
function lineLabel(name) {
  const [kind, n] = String(name).split(" ");
  if (kind === "column") return t("rec.sheet.col", { n });
  if (kind === "anti-diagonal") return t("rec.sheet.anti");
  return has(`rec.line.${kind}`) ? t(`rec.line.${kind}`, { n }) : name;
}

const NS = "http://www.w3.org/2000/svg";
const INK = "#233a8b"; // the pencil
const PAPER_LINE = "#7a6a55";

function s(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(
      typeof child === "string" || typeof child === "number"
        ? document.createTextNode(String(child))
        : child,
    );
  }
  return node;
}

function svg(width, height, ...children) {
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "area-svg", role: "img" },
    ...children,
  );
}

const text = (x, y, content, attributes = {}) =>
  s(
    "text",
    { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attributes },
    content,
  );

/** A box's number in its top-left corner (or bottom-left: `bottom`), as the game log names it
 * ("asset box 5", "slot 3"): the boxes are not in an order a player would count (the asset boxes
 * run in a snake). */
const boxNumber = (x, y, n, bottom = false) =>
  s(
    "text",
    {
      x,
      y,
      class: "box-number",
      "dominant-baseline": bottom ? "alphabetic" : "hanging",
      "aria-hidden": "true",
    },
    String(n),
  );

/** A bonus icon: a coloured disc with its glyph, its name as a tooltip. */
export function bonusIcon(name, x, y, r = 11, done = false) {
  if (!name) return null;
  const [kind, colour] = name.split(":");
  const info = BONUS[kind] || { glyph: "?", tint: "#777" };
  const fill = colour ? colourOf(colour) : info.tint;
  return s(
    "g",
    { class: `bonus${done ? " done" : ""}`, "data-bonus": name },
    s("title", {}, t("rec.board.bonus", { bonus: bonusWords(name) })),
    s("circle", { cx: x, cy: y, r, fill, stroke: "#fff8", "stroke-width": 1.5 }),
    text(x, y + 0.5, info.glyph, {
      class: "glyph",
      "font-size": info.glyph.length > 1 ? r * 0.95 : r * 1.25,
      fill: "#fff",
    }),
  );
}

function tick(x, y, size) {
  const d = size * 0.28;
  return s(
    "g",
    {
      class: "tick",
      stroke: INK,
      "stroke-width": Math.max(2.5, size / 12),
      "stroke-linecap": "round",
    },
    s("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }),
    s("line", { x1: x + d, y1: y - d, x2: x - d, y2: y + d }),
  );
}

function lock(x, y, lifted) {
  return s(
    "g",
    { class: `cash-lock${lifted ? " lifted" : ""}` },
    s("title", {}, lifted ? t("rec.sheet.lock_lifted") : t("rec.sheet.lock_hint")),
    s("rect", {
      x: x - 11,
      y: y - 8,
      width: 22,
      height: 17,
      rx: 3,
      fill: lifted ? "#cfe8c8" : "#3d8b37",
      stroke: "#1d4d1a",
    }),
    s("path", {
      d: `M${x - 6} ${y - 8}v-4a6 6 0 0 1 12 0${lifted ? "" : "v4"}`,
      fill: "none",
      stroke: "#1d4d1a",
      "stroke-width": 2.2,
    }),
    text(x, y - 0.5, "$", {
      "font-size": 16,
      "font-weight": 700,
      fill: lifted ? "#1d4d1a" : "#fff",
    }),
    lifted
      ? s("line", {
          x1: x - 13,
          y1: y + 10,
          x2: x + 13,
          y2: y - 10,
          stroke: INK,
          "stroke-width": 2.5,
        })
      : null,
  );
}

/** The cash restriction's lock on its own, for HTML text (the legend, the table's boards). */
export function lockIcon(lifted = false, attributes = {}) {
  return s(
    "svg",
    {
      viewBox: "-14 -22 28 34",
      class: "legend-lock",
      role: "img",
      "aria-label": lifted ? t("rec.sheet.lock_lifted") : t("rec.sheet.lock_aria"),
      ...attributes,
    },
    lock(0, 0, lifted),
  );
}

/** A box that can be a target: its key, outline and label. */
function box(ctx, key, x, y, w, h, attributes = {}, ...children) {
  const label = ctx.targets.get(key);
  const cls = [
    attributes.class || "box",
    label ? "target" : "",
    ctx.preview.has(key) ? "preview" : "",
  ].join(" ");
  const g = s(
    "g",
    { class: cls, "data-key": key },
    s("rect", {
      x,
      y,
      width: w,
      height: h,
      rx: 5,
      class: "frame",
      fill: attributes.fill || "#fffdf6",
      stroke: PAPER_LINE,
      "stroke-width": 1.5,
    }),
    ...children,
  );
  if (label) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", label);
    g.setAttribute("data-act", key);
    g.append(s("title", {}, label));
    const go = (event) => {
      event.preventDefault();
      ctx.onTarget?.(key);
    };
    listen(g, "click", go);
    listen(g, "keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") go(event);
    });
  }
  return g;
}

// ---- the areas -------------------------------------------------------------------------------

function crewArea(ctx) {
  const { ed, board } = ctx;
  const C = 104,
    G = 12;
  const columns = Math.max(...ed.crew.map((c) => c.column)) + 1;
  const rows = Math.max(...ed.crew.map((c) => c.row)) + 1;
  const lead = board.lead_singer;
  const sidesOf = (i) => {
    const placed = board.crew[i];
    if (!placed) return null;
    if (ed.crew[i].role === "singer") return [lead, lead, lead, lead];
    return ed.cards[placed.card].sides;
  };
  const parts = ed.crew.map((slot, i) => {
    const x = slot.column * (C + G) + G,
      y = slot.row * (C + G) + G;
    const placed = board.crew[i];
    const lifted = slot.cash !== null && board.cash_lifted.includes(ed.restrictions[slot.cash]);
    const locked = slot.cash !== null && !lifted;
    const inner = [];
    if (placed) {
      const card = ed.cards[placed.card];
      const sides = sidesOf(i);
      const b = 14;
      const poly = [
        [
          [x, y],
          [x + C, y],
          [x + C - b, y + b],
          [x + b, y + b],
        ],
        [
          [x + C, y],
          [x + C, y + C],
          [x + C - b, y + C - b],
          [x + C - b, y + b],
        ],
        [
          [x + C, y + C],
          [x, y + C],
          [x + b, y + C - b],
          [x + C - b, y + C - b],
        ],
        [
          [x, y + C],
          [x, y],
          [x + b, y + b],
          [x + b, y + C - b],
        ],
      ];
      for (const [side, pts] of poly.entries()) {
        inner.push(
          s("polygon", {
            points: pts.map((p) => p.join(",")).join(" "),
            fill: colourOf(sides[side]),
            stroke: "#0005",
            "stroke-width": 1,
          }),
        );
      }
      inner.push(
        s("rect", { x: x + b, y: y + b, width: C - 2 * b, height: C - 2 * b, fill: "#fffdf6" }),
      );
      inner.push(
        text(x + C / 2, y + C / 2 - 9, String(card.points * placed.multiplier), {
          class: "written",
          "font-size": 30,
        }),
      );
      inner.push(
        text(
          x + C / 2,
          y + C / 2 + 20,
          `${ROLE_NAMES[slot.role]}${placed.multiplier > 1 ? ` ${card.points}×${placed.multiplier}` : ""}`,
          { "font-size": 11, fill: "#5b4a36" },
        ),
      );
      inner.push(boxNumber(x + b + 4, y + C - b - 3, i + 1, true));
    } else {
      inner.push(
        text(x + C / 2, y + C / 2 + 2, ROLE_NAMES[slot.role], {
          "font-size": 13,
          fill: "#5b4a36",
          "font-weight": 700,
        }),
      );
      inner.push(bonusIcon(slot.bonus, x + C - 16, y + 16, 11));
      if (locked || lifted) inner.push(lock(x + 18, y + 18, lifted));
      inner.push(boxNumber(x + 6, y + C - 5, i + 1, true));
    }
    const key = `crew:${i}`;
    const group = box(
      ctx,
      key,
      x,
      y,
      C,
      C,
      { class: `box slot role-${slot.role}${placed ? " placed" : ""}${locked ? " locked" : ""}` },
      inner,
    );
    if (slot.cash !== null && ctx.targets.has(`cash:${slot.cash}`)) {
      // As big as a finger (40 px on a phone), over the lock in the slot's corner.
      return [
        group,
        box(ctx, `cash:${slot.cash}`, x + 2, y + 2, 66, 66, {
          class: "box cash-target",
          fill: "none",
        }),
      ];
    }
    return group;
  });
  // Harmonies: a touching pair of sides of one colour gets a note on their shared edge.
  const notes = [];
  ed.crew.forEach((slot, i) => {
    const mine = sidesOf(i);
    if (!mine) return;
    ed.crew.forEach((other, j) => {
      const theirs = sidesOf(j);
      if (!theirs || j <= i) return;
      const dr = other.row - slot.row,
        dc = other.column - slot.column;
      let side = -1;
      if (dr === 0 && dc === 1) side = 1;
      else if (dr === 0 && dc === -1) side = 3;
      else if (dc === 0 && dr === 1) side = 2;
      else if (dc === 0 && dr === -1) side = 0;
      if (side < 0 || mine[side] !== theirs[(side + 2) % 4]) return;
      const cx = ((slot.column + other.column) / 2) * (C + G) + G + C / 2;
      const cy = ((slot.row + other.row) / 2) * (C + G) + G + C / 2;
      notes.push(
        s(
          "g",
          { class: "harmony-note" },
          s("title", {}, t("rec.bonus.harmony_colour", { colour: colourName(mine[side]) })),
          s("circle", {
            cx,
            cy,
            r: 11,
            fill: colourOf(mine[side]),
            stroke: "#fff",
            "stroke-width": 2,
          }),
          text(cx, cy + 1, "♫", { "font-size": 13, fill: "#fff" }),
        ),
      );
    });
  });
  // A slot with a cash target is a pair [slot, target]: flatten it into the drawing's children.
  return svg(columns * (C + G) + G, rows * (C + G) + G, parts.flat(), notes);
}

function trackArea(ctx, list, filled, key, labelOf, options = {}) {
  // A long track wraps into rows of `columns` boxes, so that a box stays finger-sized on a phone.
  const U = options.size || 46,
    G = 8,
    columns = options.columns || list.length,
    H = U + 34;
  const parts = list.map((bonus, i) => {
    const x = G + (i % columns) * (U + G),
      y = G + Math.floor(i / columns) * H;
    const done = i < filled;
    return box(
      ctx,
      `${key}:${i}`,
      x,
      y,
      U,
      U,
      { class: `box${done ? " ticked" : ""}` },
      labelOf
        ? text(x + U / 2, y + U / 2, labelOf(i), {
            "font-size": 14,
            fill: "#5b4a36",
            "font-weight": 700,
          })
        : null,
      done ? tick(x + U / 2, y + U / 2, U) : null,
      bonusIcon(bonus, x + U / 2, y + U + 13, 10, done),
    );
  });
  return {
    parts,
    width: G + Math.min(list.length, columns) * (U + G),
    height: Math.ceil(list.length / columns) * H,
  };
}

function releaseArea(ctx) {
  const { ed, board } = ctx;
  const albums = trackArea(ctx, ed.release.albums, board.albums, "album", null, { columns: 4 });
  const singles = trackArea(ctx, ed.release.singles, board.singles, "single", null, { columns: 4 });
  const width = 78 + Math.max(albums.width, singles.width);
  return svg(
    width,
    albums.height + singles.height + 8,
    text(38, 31, t("rec.sheet.albums"), { "font-size": 13, "font-weight": 700, fill: "#5b4a36" }),
    s("g", { transform: "translate(70 0)" }, albums.parts),
    text(38, albums.height + 39, t("rec.sheet.singles"), {
      "font-size": 13,
      "font-weight": 700,
      fill: "#5b4a36",
    }),
    s("g", { transform: `translate(70 ${albums.height + 8})` }, singles.parts),
  );
}

function agendaArea(ctx) {
  const { ed, board } = ctx;
  const U = 50,
    G = 8;
  const { rows, columns, lines } = ed.agenda;
  // Each line's bonus sits one step past its last box, in the line's direction.
  const ends = lines.map((line) => {
    const a = line.boxes[0],
      b = line.boxes.at(-1);
    const [r0, c0, r1, c1] = [
      Math.floor(a / columns),
      a % columns,
      Math.floor(b / columns),
      b % columns,
    ];
    const n = line.boxes.length - 1;
    return { line, row: r1 + (r1 - r0) / n, column: c1 + (c1 - c0) / n };
  });
  const minColumn = Math.min(0, ...ends.map((e) => e.column));
  const maxColumn = Math.max(columns - 1, ...ends.map((e) => e.column));
  const maxRow = Math.max(rows - 1, ...ends.map((e) => e.row));
  const X = (c) => G + (c - minColumn) * (U + G),
    Y = (r) => G + r * (U + G);
  const parts = [];
  for (let i = 0; i < rows * columns; i += 1) {
    const x = X(i % columns),
      y = Y(Math.floor(i / columns));
    const done = board.agenda.includes(i);
    parts.push(
      box(
        ctx,
        `agenda:${i}`,
        x,
        y,
        U,
        U,
        { class: `box${done ? " ticked" : ""}` },
        boxNumber(x + 4, y + 4, i + 1),
        done ? tick(x + U / 2, y + U / 2, U) : null,
      ),
    );
  }
  for (const { line, row, column } of ends) {
    const done = line.boxes.every((b) => board.agenda.includes(b));
    const g = bonusIcon(line.bonus, X(column) + U / 2, Y(row) + U / 2 - 6, 13, done);
    if (g) {
      g.prepend(
        s(
          "title",
          {},
          t("rec.help.line_bonus", { line: lineLabel(line.name), bonus: bonusWords(line.bonus) }),
        ),
      );
      parts.push(g);
    }
    parts.push(
      text(X(column) + U / 2, Y(row) + U / 2 + 15, lineLabel(line.name), {
        "font-size": 8.5,
        fill: "#7a6a55",
      }),
    );
  }
  return svg(X(maxColumn) + U + G, Y(maxRow) + U + G, parts);
}

function tourArea(ctx) {
  const { ed, board } = ctx;
  const U = 56,
    G = 14,
    per = Math.ceil(ed.tour.length / 2);
  const place = (i) => {
    const row = Math.floor(i / per),
      k = i % per;
    const column = row % 2 === 0 ? k : per - 1 - k; // a snake from the top-left corner
    return [G + column * (U + G), G + row * (U + G + 22)];
  };
  const parts = [];
  ed.tour.forEach((_step, i) => {
    if (i > 0) {
      const [x0, y0] = place(i - 1),
        [x1, y1] = place(i);
      parts.push(
        s("line", {
          x1: x0 + U / 2,
          y1: y0 + U / 2,
          x2: x1 + U / 2,
          y2: y1 + U / 2,
          stroke: "#b9a88e",
          "stroke-width": 4,
          "stroke-dasharray": "2 6",
          "stroke-linecap": "round",
        }),
      );
    }
  });
  ed.tour.forEach((step, i) => {
    const [x, y] = place(i);
    const done = i < board.tour;
    const lifted = step.cash !== null && board.cash_lifted.includes(ed.restrictions[step.cash]);
    const here = i === board.tour - 1;
    const g = box(
      ctx,
      `tour:${i}`,
      x,
      y,
      U,
      U,
      {
        class: `box step${done ? " ticked" : ""}${here ? " here" : ""}`,
        fill: done ? "#e7f0ff" : "#fffdf6",
      },
      text(x + U / 2, y + U / 2 - 4, String(step.points), {
        "font-size": 20,
        "font-weight": 700,
        fill: done ? INK : "#5b4a36",
      }),
      text(x + U / 2, y + U - 9, t("rec.sheet.step", { n: i + 1 }), {
        "font-size": 9,
        fill: "#7a6a55",
      }),
      done
        ? s("circle", {
            cx: x + U / 2,
            cy: y + U / 2 - 4,
            r: 15,
            fill: "none",
            stroke: INK,
            "stroke-width": 2.5,
          })
        : null,
      bonusIcon(step.bonus, x + U - 4, y + U + 8, 10, done),
      step.cash !== null ? lock(x + 6, y + U + 8, lifted) : null,
      here
        ? s(
            "g",
            {},
            s("title", {}, t("rec.sheet.here")),
            s("path", { d: `M${x + U / 2 - 9} ${y - 2}l9 -10l9 10z`, fill: INK }),
          )
        : null,
    );
    parts.push(g);
    if (step.cash !== null && ctx.targets.has(`cash:${step.cash}`)) {
      parts.push(
        box(ctx, `cash:${step.cash}`, x - 19, y + U - 18, 52, 52, {
          class: "box cash-target",
          fill: "none",
        }),
      );
    }
  });
  return svg(G + per * (U + G), 2 * (U + G + 22) + 4, parts);
}

function multiplierArea(ctx) {
  const { ed, board } = ctx;
  const U = 50,
    G = 8;
  return svg(
    G + ed.multipliers.length * (U + G),
    U + 2 * G,
    ed.multipliers.map((value, i) => {
      const x = G + i * (U + G),
        y = G;
      const earned = i < board.multipliers.earned;
      const spent = board.multipliers.spent.includes(i);
      return box(
        ctx,
        `multiplier:${i}`,
        x,
        y,
        U,
        U,
        { class: `box${earned ? " ticked" : ""}${spent ? " spent" : ""}` },
        text(x + U / 2, y + U / 2, `×${value}`, {
          "font-size": 19,
          "font-weight": 700,
          fill: earned ? INK : "#5b4a36",
        }),
        earned
          ? s("circle", {
              cx: x + U / 2,
              cy: y + U / 2,
              r: 19,
              fill: "none",
              stroke: INK,
              "stroke-width": 2.5,
            })
          : null,
        spent
          ? s("line", {
              x1: x + 6,
              y1: y + U - 6,
              x2: x + U - 6,
              y2: y + 6,
              stroke: INK,
              "stroke-width": 3,
            })
          : null,
        s(
          "title",
          {},
          spent
            ? t("rec.mult.used", { value })
            : earned
              ? t("rec.mult.ready_crew", { value })
              : t("rec.mult.not_earned", { value }),
        ),
      );
    }),
  );
}

function assetsArea(ctx) {
  const { ed, board } = ctx;
  // Two rows in a snake (the second runs back right to left), so that a box is finger-sized on a
  // phone; each bonus sits between the two boxes it joins.
  const U = 46,
    G = 22,
    per = Math.ceil(ed.assets.boxes / 2);
  const place = (i) => {
    const row = Math.floor(i / per),
      k = i % per;
    const column = row === 0 ? k : per - 1 - k;
    return [10 + column * (U + G), 8 + row * (U + G)];
  };
  const parts = [];
  for (let i = 0; i < ed.assets.boxes; i += 1) {
    const [x, y] = place(i);
    const done = board.assets.includes(i);
    parts.push(
      box(
        ctx,
        `assets:${i}`,
        x,
        y,
        U,
        U,
        { class: `box${done ? " ticked" : ""}` },
        boxNumber(x + 4, y + 4, i + 1),
        done ? tick(x + U / 2, y + U / 2, U) : null,
      ),
    );
  }
  ed.assets.bonuses.forEach((bonus, i) => {
    const [x0, y0] = place(i),
      [x1, y1] = place(i + 1);
    const done = board.assets.includes(i) && board.assets.includes(i + 1);
    parts.push(bonusIcon(bonus, (x0 + x1) / 2 + U / 2, (y0 + y1) / 2 + U / 2, 10, done));
  });
  const rows = ed.assets.boxes > per ? 2 : 1;
  return svg(20 + per * (U + G) - G, 16 + rows * (U + G) - G, parts);
}

function harmoniesArea(ctx) {
  const { ed, board } = ctx;
  const U = 44,
    G = 7,
    columns = ed.harmonies.columns;
  const parts = [];
  ed.colours.forEach((colour, row) => {
    const ticked = board.harmonies[colour] || [];
    for (let j = 0; j < columns; j += 1) {
      const x = G + j * (U + G),
        y = G + row * (U + G);
      const done = ticked.includes(j);
      const bonus = ed.harmonies.bonuses[colour][j];
      parts.push(
        box(
          ctx,
          `harmony:${row * columns + j}`,
          x,
          y,
          U,
          U,
          {
            class: `box${done ? " ticked" : ""}`,
            fill: done ? colourOf(colour) : `${colourOf(colour)}33`,
          },
          bonus ? bonusIcon(bonus, x + U - 11, y + 11, 8.5, done) : null,
          done ? tick(x + U / 2, y + U / 2 + 3, U - 6) : null,
        ),
      );
    }
    const full = ticked.length === columns;
    parts.push(
      text(G + columns * (U + G) + 16, G + row * (U + G) + U / 2, `${ed.harmonies.row_points}`, {
        "font-size": 15,
        "font-weight": 700,
        fill: full ? INK : "#9c8b73",
        class: full ? "written" : "",
      }),
    );
  });
  for (let j = 0; j < columns; j += 1) {
    const full = ed.colours.every((c) => (board.harmonies[c] || []).includes(j));
    parts.push(
      text(
        G + j * (U + G) + U / 2,
        G + ed.colours.length * (U + G) + 10,
        `${ed.harmonies.column_points}`,
        {
          "font-size": 15,
          "font-weight": 700,
          fill: full ? INK : "#9c8b73",
          class: full ? "written" : "",
        },
      ),
    );
  }
  return svg(G + columns * (U + G) + 32, G + ed.colours.length * (U + G) + 22, parts);
}

function failArea(ctx) {
  const { ed, board } = ctx;
  const track = trackArea(
    ctx,
    ed.fail.bonuses.map((b) => b || null),
    board.fails,
    "failbox",
    (i) => String(ed.fail.penalties[i]),
    { size: 44 },
  );
  const next = board.fails < ed.fail.penalties.length ? board.fails : -1;
  // The next fail box is where a failed card goes.
  if (next >= 0 && ctx.targets.has("fail")) {
    const U = 44,
      G = 8;
    track.parts.push(
      box(ctx, "fail", G + next * (U + G), G, U, U, { class: "box fail-target", fill: "none" }),
    );
  }
  return svg(track.width, track.height, track.parts);
}

function goalsArea(ctx) {
  const { ed, board, goalNames } = ctx;
  const U = 50,
    G = 8;
  const parts = [];
  for (let i = 0; i < ed.goal_boxes; i += 1) {
    const x = G + i * (U + G),
      y = G;
    const id = board.goals[i];
    const goal = id ? ed.goals[id] : null;
    parts.push(
      s(
        "g",
        { class: "box" },
        s("rect", {
          x,
          y,
          width: U,
          height: U,
          rx: 5,
          fill: "#fffdf6",
          stroke: PAPER_LINE,
          "stroke-width": 1.5,
        }),
        goal
          ? text(x + U / 2, y + U / 2 - 3, String(goal.points), {
              class: "written",
              "font-size": 24,
            })
          : null,
        goal && goalNames !== false
          ? text(x + U / 2, y + U - 8, shortName(goalName(ed, id)), {
              "font-size": 8,
              fill: "#7a6a55",
            })
          : null,
        goal
          ? s(
              "title",
              {},
              t("rec.sheet.goal_points", { name: goalName(ed, id), count: goal.points }),
            )
          : null,
      ),
    );
  }
  return svg(G + ed.goal_boxes * (U + G), U + 2 * G, parts);
}

function scoresArea(ctx) {
  const { board } = ctx;
  const W = 62,
    parts = [];
  SCORING.forEach((area, i) => {
    const x = 6 + i * W;
    parts.push(
      text(x + W / 2, 14, AREA_NAMES[area], {
        "font-size": 11,
        fill: "#5b4a36",
        "font-weight": 700,
      }),
    );
    parts.push(
      s("rect", {
        x: x + 4,
        y: 26,
        width: W - 8,
        height: 36,
        rx: 5,
        fill: "#fffdf6",
        stroke: PAPER_LINE,
      }),
    );
    parts.push(
      text(x + W / 2, 44, String(board.breakdown[area] ?? 0), {
        class: "written",
        "font-size": 20,
      }),
    );
    parts.push(
      text(x + W, 44, i < SCORING.length - 1 ? "+" : "=", { "font-size": 15, fill: "#7a6a55" }),
    );
  });
  const x = 6 + SCORING.length * W;
  parts.push(
    text(x + 36, 14, t("rec.sheet.total"), {
      "font-size": 12,
      fill: "#5b4a36",
      "font-weight": 700,
    }),
  );
  parts.push(
    s("rect", {
      x: x + 4,
      y: 22,
      width: 64,
      height: 44,
      rx: 6,
      fill: "#fff3c4",
      stroke: "#a8832c",
      "stroke-width": 2,
    }),
  );
  parts.push(text(x + 36, 44, String(board.score), { class: "written", "font-size": 26 }));
  return svg(x + 74, 70, parts);
}

const AREAS = {
  crew: crewArea,
  tour: tourArea,
  release: releaseArea,
  agenda: agendaArea,
  assets: assetsArea,
  harmonies: harmoniesArea,
  multiplier: multiplierArea,
  fail: failArea,
  goals: goalsArea,
  scores: scoresArea,
};
export const AREA_ORDER = [
  "crew",
  "agenda",
  "harmonies",
  "tour",
  "release",
  "assets",
  "multiplier",
  "fail",
  "goals",
  "scores",
];

/** The area a target key belongs to. */
export function areaOfKey(ed, key) {
  const [kind, n] = key.split(":");
  if (kind === "cash") {
    const name = ed.restrictions[Number(n)] || "";
    return name.startsWith("tour") ? "tour" : "crew";
  }
  return (
    { crew: "crew", agenda: "agenda", assets: "assets", harmony: "harmonies", fail: "fail" }[
      kind
    ] || kind
  );
}

function areaScore(area, board) {
  if (area === "scores") return String(board.score);
  const value = board.breakdown[area];
  if (value === undefined) return "";
  return String(value);
}

/** The whole sheet: a section per area, each headed by its name and its points. */
/** What an area does and how it scores, in words, from the edition's numbers. */
export function areaHelp(ed, area) {
  const list = (xs) => xs.join(t("common.list_sep"));
  switch (area) {
    case "crew":
    case "assets":
    case "scores":
      return t(`rec.help.${area}`);
    case "agenda":
      return t("rec.help.agenda", {
        bonuses: list(
          ed.agenda.lines
            .filter((l) => l.bonus)
            .map((l) =>
              t("rec.help.line_bonus", { line: lineLabel(l.name), bonus: bonusWords(l.bonus) }),
            ),
        ),
      });
    case "harmonies":
      return t("rec.help.harmonies", {
        row: ed.harmonies.row_points,
        column: ed.harmonies.column_points,
      });
    case "tour":
      return t("rec.help.tour", { points: list(ed.tour.map((s) => s.points)) });
    case "release":
      return t("rec.help.release", {
        albums: ed.release.albums.length,
        singles: ed.release.singles.length,
      });
    case "multiplier":
      return t("rec.help.multiplier", { values: list(ed.multipliers.map((m) => `×${m}`)) });
    case "fail":
      return t("rec.help.fail", { penalties: list(ed.fail.penalties) });
    case "goals":
      return t("rec.help.goals", { boxes: ed.goal_boxes });
    default:
      return "";
  }
}

export function drawSheet(ed, board, options = {}) {
  const ctx = {
    ed,
    board,
    targets: options.targets || new Map(),
    preview: options.preview || new Set(),
    onTarget: options.onTarget,
    goalNames: !options.small,
  };
  const lead = board.lead_singer;
  const sheet = el("div", {
    class: `sheet${options.small ? " small" : ""}`,
    "aria-label": options.label || t("rec.sheet.label"),
    style: lead ? { "--lead": colourOf(lead) } : {},
  });
  const busy = new Set([...ctx.targets.keys()].map((k) => areaOfKey(ed, k)));
  const look = new Set([...ctx.preview].map((k) => areaOfKey(ed, k)));
  for (const area of AREA_ORDER) {
    const score = areaScore(area, board);
    const section = el(
      "section",
      {
        class: `area area-${area}${busy.has(area) ? " has-target" : ""}${look.has(area) ? " has-preview" : ""}`,
        "data-area": area,
      },
      el(
        "h3",
        {},
        options.small
          ? el("span", {}, AREA_NAMES[area])
          : el(
              "button",
              {
                type: "button",
                class: "area-title",
                "aria-expanded": "false",
                title: t("rec.sheet.help_title"),
                onclick: (event) => {
                  // The section on the page (a phone keeps its sheet's elements across states,
                  // so not always the one this handler was made with).
                  const here = event.currentTarget.closest("section");
                  const open = here.querySelector(".area-help");
                  event.currentTarget.setAttribute("aria-expanded", String(!open));
                  if (open) open.remove();
                  else
                    here
                      .querySelector("h3")
                      .after(el("p", { class: "area-help" }, areaHelp(ed, area)));
                },
              },
              AREA_NAMES[area],
              el("span", { class: "help-mark", "aria-hidden": "true" }, " ?"),
            ),
        score !== "" && area !== "scores" ? el("b", { class: "area-points" }, score) : null,
      ),
      AREAS[area](ctx),
    );
    sheet.append(section);
  }
  return sheet;
}

/** The legend of bonus icons, once per page. */
export function legend() {
  return el(
    "div",
    { class: "legend", "aria-label": t("rec.sheet.legend") },
    Object.entries(BONUS).map(([_name, info]) =>
      el(
        "span",
        { class: "legend-item" },
        el("span", { class: "legend-icon", style: { background: info.tint } }, info.glyph),
        info.word,
      ),
    ),
    el(
      "span",
      { class: "legend-item" },
      lockIcon(false, { "aria-hidden": "true", role: null, "aria-label": null }),
      t("rec.sheet.lock"),
    ),
  );
}
