/**
 * The viewer's one HTML page. Kept as a string in a TS module (not a file read at run
 * time) so it ships inside `dist/` with no copy step. The page loads only `/app.css` and
 * `/app.js` from the same origin; the CSP forbids everything else.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docparse-rag viewer</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header>
  <form id="search-form" role="search" autocomplete="off">
    <label for="q" class="sr-only">Search the documents</label>
    <input id="q" name="q" type="search" maxlength="500" placeholder="Ask or search the documents…" autofocus>
    <button type="submit">Search</button>
  </form>
  <p id="status" role="status" aria-live="polite"></p>
</header>
<main>
  <nav aria-label="Results">
    <ol id="results" role="listbox" tabindex="0" aria-label="Ranked results"></ol>
  </nav>
  <section id="source" aria-label="Source" tabindex="-1">
    <p class="hint">Search, then pick a result (↑ ↓ Enter) to see where it comes from.</p>
  </section>
</main>
</body>
</html>
`;
