// The tier table of Disc Cover's "How to play" page, from the same figures the table screen uses
// (a test keeps them equal to the engine's), drawn again when the page's language changes.
import { onLanguage, t } from "/static/common/i18n.js";
import { TIER_FLOORS, TIERS } from "./common.js";

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );

function tierTable() {
  const table = document.querySelector("#tier-table");
  if (!table) return;
  const head = `<tr><th>${escapeHtml(t("rules.dc.tiers.players"))}</th>${TIERS.slice(1)
    .map((tier) => `<th>${escapeHtml(t(`dc.tier.${tier}`))}</th>`)
    .join("")}</tr>`;
  const rows = Object.entries(TIER_FLOORS)
    .map(
      ([players, floors]) =>
        `<tr><td>${players}</td>${floors.map((f) => `<td>${f}+</td>`).join("")}</tr>`,
    )
    .join("");
  table.innerHTML = head + rows;
}

onLanguage(tierTable);
tierTable();
