// The "How to play" pages: our own words from the catalogue, and Records' numbers from the edition
// in play (GET /api/games/records/edition). Disc Cover's tier table is its own page's module
// (disc-cover/rules-tiers.js): this page imports no game's folder.
import { has, onLanguage, t } from "/static/common/i18n.js";

const $ = (selector) => document.querySelector(selector);
const game = document.body.dataset.game;
let edition = null;

function escapeHtml(text) {
  return String(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );
}

/** The contents: one link per section, titled by its heading. */
function contents() {
  $("#toc").replaceChildren(
    ...[...document.querySelectorAll("main section")].map((section) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `#${section.id}`;
      link.textContent = section.querySelector("h2").textContent;
      item.append(link);
      return item;
    }),
  );
}

/** Records: every paragraph filled with the edition's figures (numbers are escaped, words are ours). */
function recordsText() {
  const ed = edition;
  const count = (kind) => Object.values(ed.cards).filter((card) => card.kind === kind).length;
  const points = Object.values(ed.goals).map((goal) => goal.points);
  const figures = {
    edition: escapeHtml(
      has(`rec.edition.${ed.name}`) ? t(`rec.edition.${ed.name}`) : ed.title || ed.name,
    ),
    goals: ed.public_goals,
    hand: ed.hand_size,
    picks: ed.picks_per_week,
    crew: count("crew"),
    agenda: count("agenda"),
    assets: count("asset") || count("assets"),
    penalties: ed.fail.penalties.join(" / "),
    boxes: ed.goal_boxes,
    albums: ed.release.albums.length,
    singles: ed.release.singles.length,
    points: ed.tour.map((box) => box.points).join(" · "),
    multipliers: ed.multipliers.map((m) => `×${m}`).join(" "),
    row: ed.harmonies.row_points,
    column: ed.harmonies.column_points,
    count: points.length,
    min: Math.min(...points),
    max: Math.max(...points),
  };
  $("#intro").innerHTML = t("rules.rec.intro", figures);
  for (const node of document.querySelectorAll("[data-text]")) {
    const key = node.dataset.text;
    // The areas' own figures where two areas use the same placeholder name.
    const own = key === "rules.rec.area.assets" ? { boxes: ed.assets.boxes } : {};
    node.innerHTML = t(key, { ...figures, ...own });
  }
}

async function draw() {
  if (game === "records") {
    if (!edition) {
      const answer = await fetch("/api/games/records/edition");
      edition = await answer.json();
    }
    recordsText();
  }
  contents();
  document.title = t(game === "records" ? "rules.rec.title" : "rules.dc.title");
  // The part asked for in the address (a help link of a phase) comes into view once drawn.
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

onLanguage(draw);
draw();
