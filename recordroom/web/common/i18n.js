// Every word a page shows, in the reader's language. The catalogue is the server's own
// (GET /i18n/{lang}.json, the same file the server reads): flat keys, {name} placeholders, and
// plural forms ({"one": ..., "other": ...}) chosen by the `count` parameter with Intl.PluralRules.
//
// The language: `?lang=` in the address, else the switch's choice kept in localStorage
// ("recordroom.lang"), else the first of navigator.languages we have, else English. Elements say
// what they show with attributes, translated by translate():
//   data-i18n=KEY                         the element's text
//   data-i18n-html=KEY                    the element's markup (catalogue text with <b>, <i>, <a>)
//   data-i18n-attr=ATTR:KEY;ATTR:KEY      attributes (placeholder, aria-label, title ...)
// Strings made in JavaScript call t(KEY, {params}). Importing this module waits for the
// catalogue (top-level await), so t() is ready in every module that imports it.

export const LANGUAGES = { en: "English", "zh-CN": "简体中文" };
export const DEFAULT = "en";
const STORE_KEY = "recordroom.lang";

/** Our language for a BCP 47 tag ("zh", "zh-Hans-CN", "en-GB"), or null. */
export function supported(tag) {
  if (!tag) return null;
  const lower = String(tag).trim().replace(/_/g, "-").toLowerCase();
  for (const lang of Object.keys(LANGUAGES)) if (lower === lang.toLowerCase()) return lang;
  const primary = lower.split("-")[0];
  if (primary === "zh") return "zh-CN";
  for (const lang of Object.keys(LANGUAGES))
    if (lang.toLowerCase().split("-")[0] === primary) return lang;
  return null;
}

function storedChoice() {
  try {
    return window.localStorage.getItem(STORE_KEY);
  } catch {
    return null;
  }
}

/** The language this page speaks: the address, the stored switch, the browser, English. */
export function pickLanguage() {
  const asked = supported(new URLSearchParams(location.search).get("lang"));
  if (asked) return asked;
  const stored = supported(storedChoice());
  if (stored) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const lang = supported(tag);
    if (lang) return lang;
  }
  return DEFAULT;
}

export let lang = pickLanguage();
let messages = {};
let english = {};
let rules = new Intl.PluralRules(lang);
const listeners = new Set();

async function fetchCatalogue(tag) {
  const answer = await fetch(`/i18n/${tag}.json`);
  if (!answer.ok) throw new Error(`no catalogue for ${tag}`);
  return answer.json();
}

async function load(tag) {
  const [own, en] = await Promise.all([
    fetchCatalogue(tag).catch(() => ({})),
    tag === DEFAULT ? null : fetchCatalogue(DEFAULT).catch(() => ({})),
  ]);
  messages = own;
  english = en || own;
  lang = tag;
  rules = new Intl.PluralRules(tag);
  document.documentElement.lang = tag;
}

await load(lang);

/** Whether the catalogue has a message for `key`. */
export const has = (key) => key in messages || key in english;

/** The message `key` filled with `params` (English when this language lacks it; the key itself when nobody has it). */
export function t(key, params = {}) {
  let message = messages[key] ?? english[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const form = rules.select(Number(params.count ?? 0));
    message = message[form] ?? message.other ?? Object.values(message)[0];
  }
  return message.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) =>
    params[name] === undefined || params[name] === null ? whole : String(params[name]),
  );
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cem" (安、博和杰姆) in this language. */
export function andList(items) {
  const list = items.filter((x) => x !== null && x !== undefined && x !== "");
  if (list.length < 2) return list[0] || "";
  return t("common.and_list", {
    first: list.slice(0, -1).join(t("common.list_sep")),
    last: list.at(-1),
  });
}

/** A number with its noun ("3 points", "3 分"): the plural message `key` with count = n. */
export const plural = (key, n, params = {}) => t(key, { ...params, count: n });

/** Translates the marked elements under `root` (see the module's page). */
export function translate(root = document) {
  const all = (selector) => [
    ...(root.matches?.(selector) ? [root] : []),
    ...root.querySelectorAll(selector),
  ];
  for (const node of all("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of all("[data-i18n-html]")) node.innerHTML = t(node.dataset.i18nHtml);
  for (const node of all("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":").map((s) => s.trim());
      if (attribute && key) node.setAttribute(attribute, t(key));
    }
  }
  const title = document.querySelector("title[data-i18n]");
  if (title) document.title = t(title.dataset.i18n);
}

/** Calls `listener(lang)` after every change of language (pages redraw what they made in JS). */
export function onLanguage(listener) {
  listeners.add(listener);
}

/** Switches this browser to `tag`, keeps the choice, and redraws the page. */
export async function setLanguage(tag) {
  const next = supported(tag) || DEFAULT;
  try {
    window.localStorage.setItem(STORE_KEY, next);
  } catch {
    /* private mode: this page only */
  }
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", next);
    history.replaceState(history.state, "", url);
  }
  await load(next);
  translate();
  for (const listener of listeners) listener(next);
  for (const select of document.querySelectorAll("select.lang-switch")) select.value = next;
}

/** A <select> that switches the language of this browser (it is labelled in every language). */
export function languageSwitch(className = "lang-switch") {
  const select = document.createElement("select");
  select.className = className.includes("lang-switch") ? className : `lang-switch ${className}`;
  select.setAttribute("aria-label", "Language · 语言");
  for (const [tag, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, tag, false, tag === lang);
    option.lang = tag;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  return select;
}

/** Puts a language switch into every element marked data-lang-switch. */
export function mountSwitches(root = document) {
  for (const holder of root.querySelectorAll("[data-lang-switch]")) {
    if (!holder.querySelector("select.lang-switch")) holder.append(languageSwitch());
  }
}

/** What an error says to this reader: the catalogue's sentence for its code, or the server's own. */
export function errorText(error) {
  if (!error) return "";
  const code = error.code;
  if (lang !== DEFAULT && code && has(`error.${code}`)) return t(`error.${code}`);
  return error.message || (code && has(`error.${code}`) ? t(`error.${code}`) : String(error));
}

translate();
mountSwitches();
