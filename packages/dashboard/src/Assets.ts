import { createHash } from "node:crypto"
import { paths } from "./Paths.ts"

/**
 * The dashboard's style sheet and script, served by the server itself (`/dashboard/assets/...`): no CDN, nothing to
 * build. The script only enhances (copy buttons, the live count of a watchlist's matches as it is typed); every page
 * works without it.
 */
export const styleSheet = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #555; --line: #d0d4da; --accent: #0b5cad; --bg: #fff;
  --soft: #f3f5f8; --danger: #a4161a; --ok: #1b6e2d; font-family: system-ui, -apple-system, "Segoe UI", Roboto,
  "Noto Sans", "Noto Sans Armenian", sans-serif; line-height: 1.5; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--bg); padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
header { border-bottom: 1px solid var(--line); background: var(--soft); }
.bar { max-width: 60rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem;
  align-items: center; }
.brand { font-weight: 700; font-size: 1.15rem; color: var(--fg); text-decoration: none; }
nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
nav a[aria-current="page"] { font-weight: 700; color: var(--fg); }
.languages { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
.choices { display: flex; gap: .5rem; align-items: center; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
form.stack { display: grid; gap: .5rem; max-width: 28rem; }
label { font-weight: 600; }
input, select, button { font: inherit; padding: .5rem .65rem; border: 1px solid #767676; border-radius: 4px;
  max-width: 100%; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.secondary { background: var(--bg); color: var(--accent); }
button.danger { background: var(--bg); color: var(--danger); border-color: var(--danger); }
.inline { display: inline; }
.notice { padding: .75rem 1rem; border-radius: 4px; background: var(--soft); border-left: 4px solid var(--accent); }
.error { border-left-color: var(--danger); }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret code { font-size: 1rem; padding: .4rem .6rem; background: var(--soft); border: 1px solid var(--line);
  border-radius: 4px; word-break: break-all; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1.5rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.muted { color: var(--muted); }
nav { flex-basis: 100%; }
nav li { white-space: nowrap; }
nav a { display: inline-block; padding: .2rem 0; }
form.stack.wide { max-width: 42rem; }
fieldset { border: 1px solid var(--line); border-radius: 4px; padding: .75rem 1rem 1rem; margin: .25rem 0;
  min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.field { display: grid; gap: .2rem; align-content: start; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: .75rem 1rem; }
.help { color: var(--muted); font-size: .9rem; margin: 0; }
.field-error { color: var(--danger); font-weight: 600; font-size: .95rem; }
[aria-invalid="true"] { border: 2px solid var(--danger); }
.check { display: flex; gap: .5rem; align-items: center; margin-bottom: .5rem; }
.check input { width: 1.25rem; height: 1.25rem; margin: 0; }
.live { min-height: 1.5rem; font-weight: 600; margin: .25rem 0; }
ul.plain { list-style: none; padding: 0; margin: 0; }
.wrap, .card, dl.facts dd { overflow-wrap: anywhere; }
ol.cards { list-style: none; padding: 0; display: grid; gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; }
.card h3 { margin: 0 0 .25rem; font-size: 1.1rem; }
.card p { margin: .25rem 0; }
dl.pairs { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .25rem 1rem;
  margin: .5rem 0; }
dl.pairs dt { font-size: .85rem; color: var(--muted); }
dl.pairs dd { margin: 0; overflow-wrap: anywhere; }
form.wide > button { justify-self: start; }
.chart { width: 100%; max-width: 32rem; height: auto; display: block; margin: .5rem 0; }
.chart .day { fill: var(--accent); }
.chart .today { fill: #063d75; }
.chart .scale { fill: var(--muted); font-size: 13px; }
.chart .rule { stroke: var(--line); }
.chart .axis { stroke: var(--muted); }
summary { cursor: pointer; color: var(--accent); padding: .25rem 0; }
details.filters { border: 1px solid var(--line); border-radius: 4px; padding: .25rem 1rem; }
details.filters[open] { padding-bottom: 1rem; }
details.filters summary { font-weight: 600; }
.status.failed { color: var(--danger); font-weight: 600; }
.status.delivered { color: var(--ok); }
.actions { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; margin-top: 1rem; }
.actions form { max-width: 24rem; display: grid; gap: .5rem; justify-items: start; }
@media (max-width: 40rem) {
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: .5rem; }
  .languages { margin-left: 0; }
  table, thead, tbody, tr, th, td { display: block; }
  thead { position: absolute; left: -9999px; }
  tr { border-bottom: 1px solid var(--line); padding: .5rem 0; }
  td { border: 0; padding: .15rem 0; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
}
`

export const script = `
const live = document.querySelector("form[data-live-count]")
if (live) {
  const output = document.getElementById(live.getAttribute("data-live-output"))
  let timer
  let pending
  const count = () => {
    if (pending) pending.abort()
    pending = new AbortController()
    fetch(live.getAttribute("data-live-count"), {
      method: "POST",
      body: new URLSearchParams(new FormData(live)),
      headers: { accept: "application/json" },
      signal: pending.signal
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (!answer || !output) return
        output.textContent = answer.text
        if (answer.lang) output.setAttribute("lang", answer.lang)
        else output.removeAttribute("lang")
        if (typeof answer.count === "number") output.setAttribute("data-count", String(answer.count))
        else output.removeAttribute("data-count")
      })
      .catch(() => {})
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(count, 300)
  }
  live.addEventListener("input", later)
  live.addEventListener("change", later)
  if (new FormData(live).get("q")) count()
}

document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null
  if (!button) return
  const source = document.getElementById(button.getAttribute("data-copy"))
  if (!source || !navigator.clipboard) return
  await navigator.clipboard.writeText(source.textContent.trim())
  const status = document.getElementById(button.getAttribute("data-copy") + "-status")
  if (status) status.textContent = button.getAttribute("data-copied") || ""
})
`

const versionOf = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 12)

/**
 * The assets' addresses with their content's hash: a page names the asset it was made with, so an asset can be
 * cached for a year and a deploy never runs a page with the old script.
 */
export const assetUrls = {
  style: `${paths.style}?v=${versionOf(styleSheet)}`,
  script: `${paths.script}?v=${versionOf(script)}`
} as const
