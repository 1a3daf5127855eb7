/// The dashboard's page: plain HTML, CSS and JavaScript served as they are (no build step, nothing
/// fetched from elsewhere). Record text only ever reaches the page through `textContent`, never as
/// markup, and the Content-Security-Policy allows no inline script, so device or transcript text
/// cannot run script.
enum DashboardPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>AIBuds AI dashboard</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>AI dashboard</h1>
          <span id="live-status" class="live" role="status" aria-live="polite">connecting…</span>
        </header>
        <form id="filters" aria-label="Filter records">
          <label>Kind
            <select id="filter-kind" name="kind">
              <option value="">all</option>
              <option value="ai-recording">AI recording</option>
              <option value="interpretation">interpretation</option>
              <option value="conversation">conversation</option>
              <option value="transcription">transcription</option>
              <option value="conversation-translation">conversation translation</option>
            </select>
          </label>
          <label>Device <input id="filter-device" name="device" type="search" placeholder="name or id" autocomplete="off"></label>
          <label>Since <input id="filter-since" name="since" type="datetime-local"></label>
          <label class="check"><input id="filter-errors" name="errors" type="checkbox"> errors only</label>
        </form>
        <main>
          <section id="list-pane" aria-label="Records">
            <p class="hint">Keys: <kbd>j</kbd>/<kbd>k</kbd> or arrows move, <kbd>Enter</kbd> opens, <kbd>/</kbd> filters by device, <kbd>Esc</kbd> back to the list.</p>
            <ul id="records"></ul>
            <p id="empty" hidden>No records match.</p>
          </section>
          <section id="detail" aria-label="Record" hidden tabindex="-1">
            <h2 id="detail-title"></h2>
            <p id="detail-meta"></p>
            <div class="audio">
              <audio id="audio" controls preload="auto"></audio>
              <canvas id="waveform" width="800" height="90" aria-label="Waveform of the audio"></canvas>
              <p id="no-audio" hidden>No audio.</p>
            </div>
            <div class="tables">
              <div><h3>Device</h3><table id="device-info"></table></div>
              <div><h3>Start parameters</h3><table id="parameters"></table></div>
            </div>
            <h3>Timeline</h3>
            <ol id="timeline"></ol>
            <p><a id="export" href="#">Export this record (JSON)</a></p>
          </section>
        </main>
        </body>
        </html>
        """

    static let style = """
        :root { --fg: #1c1c1c; --muted: #5d5d5d; --line: #d6d6d6; --accent: #0b5cad; --error: #b00020; --bg: #fff; --soft: #f3f5f8; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.2rem; margin: 0; }
        .live { font-size: .85rem; color: var(--muted); }
        .live.on::before { content: "● "; color: #1a7f37; }
        form { display: flex; flex-wrap: wrap; gap: .6rem 1rem; padding: .6rem 1rem; background: var(--soft); border-bottom: 1px solid var(--line); }
        label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
        label.check { flex-direction: row; align-items: center; gap: .3rem; }
        input, select { font: inherit; padding: .25rem .4rem; }
        main { display: grid; grid-template-columns: minmax(16rem, 24rem) 1fr; min-height: 70vh; }
        #list-pane { border-right: 1px solid var(--line); overflow: auto; }
        .hint { font-size: .75rem; color: var(--muted); margin: .5rem 1rem; }
        #records { list-style: none; margin: 0; padding: 0; }
        #records a { display: block; padding: .55rem 1rem; border-bottom: 1px solid var(--line); color: inherit; text-decoration: none; }
        #records a:hover, #records a.selected { background: #e8f0fb; }
        #records a:focus { outline: 3px solid var(--accent); outline-offset: -3px; }
        .kind { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: var(--accent); }
        .device { font-weight: 600; overflow-wrap: anywhere; }
        .meta { font-size: .8rem; color: var(--muted); }
        .badge { display: inline-block; font-size: .72rem; padding: 0 .4rem; border-radius: .6rem; background: var(--line); margin-left: .3rem; }
        .badge.running { background: #d4f2dc; }
        .badge.failed, .badge.errors { background: #fbd5da; color: var(--error); }
        #detail { padding: .5rem 1.2rem 2rem; min-width: 0; }
        #detail h2 { margin: .4rem 0; overflow-wrap: anywhere; }
        .audio audio { width: 100%; }
        #waveform { width: 100%; height: 90px; background: var(--soft); border: 1px solid var(--line); }
        .tables { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
        table { border-collapse: collapse; width: 100%; font-size: .85rem; }
        th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; vertical-align: top; }
        th { color: var(--muted); font-weight: 500; width: 40%; }
        #timeline { list-style: none; padding: 0; margin: 0; }
        #timeline li { padding: .35rem .5rem; border-left: 4px solid var(--line); margin: .25rem 0; overflow-wrap: anywhere; }
        #timeline li.error { border-color: var(--error); background: #fdecee; }
        #timeline li.error .what { color: var(--error); font-weight: 600; }
        #timeline li.transcript { border-color: var(--accent); }
        #timeline li.reply { border-color: #1a7f37; background: #eef8f0; }
        #timeline time { font-size: .75rem; color: var(--muted); margin-right: .5rem; }
        .what { font-size: .75rem; text-transform: uppercase; margin-right: .4rem; color: var(--muted); }
        .detail { font-size: .8rem; color: var(--muted); margin-left: .4rem; }
        a { color: var(--accent); }
        @media (max-width: 700px) {
          main { grid-template-columns: 1fr; }
          #list-pane { border-right: 0; }
          body.viewing #list-pane { display: none; }
          .tables { grid-template-columns: 1fr; }
          form { gap: .4rem .6rem; }
          form label:not(.check) { flex: 1 1 40%; }
        }
        """

    static let script = """
        "use strict";
        // Every text from a record reaches the page through textContent: never as markup.
        const $ = (id) => document.getElementById(id);
        const kindNames = { "ai-recording": "AI recording", "interpretation": "Interpretation", "conversation": "AI conversation", "transcription": "Transcription", "conversation-translation": "Conversation translation" };
        let currentId = null;
        let refreshTimer = null;

        function el(tag, className, text) {
          const node = document.createElement(tag);
          if (className) node.className = className;
          if (text !== undefined) node.textContent = String(text);
          return node;
        }
        function when(iso) { return iso ? new Date(iso).toLocaleString() : ""; }

        async function getJSON(path) {
          const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
          if (!response.ok) throw new Error(path + ": " + response.status);
          return response.json();
        }

        function filterQuery() {
          const query = new URLSearchParams();
          if ($("filter-kind").value) query.set("kind", $("filter-kind").value);
          if ($("filter-device").value.trim()) query.set("device", $("filter-device").value.trim());
          if ($("filter-since").value) query.set("since", new Date($("filter-since").value).toISOString());
          if ($("filter-errors").checked) query.set("errors", "1");
          return query.toString();
        }

        async function loadList() {
          const records = await getJSON("/api/records?" + filterQuery());
          const list = $("records");
          const focusedId = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.id : null;
          list.replaceChildren();
          for (const record of records) {
            const item = el("li");
            const link = el("a");
            link.href = "#/record/" + record.id;
            link.dataset.id = String(record.id);
            link.dataset.status = record.status;
            if (String(record.id) === String(currentId)) link.classList.add("selected");
            link.append(el("span", "kind", kindNames[record.kind] || record.kind));
            const status = el("span", "badge " + record.status, record.status);
            link.append(status);
            if (record.errorCount > 0) link.append(el("span", "badge errors", record.errorCount + (record.errorCount === 1 ? " error" : " errors")));
            link.append(el("div", "device", record.deviceName));
            link.append(el("div", "meta", record.deviceIdentifier + " · " + when(record.startedAt) + " · " + record.audioSeconds.toFixed(1) + " s audio"));
            item.append(link);
            list.append(item);
            if (focusedId === String(record.id)) link.focus();
          }
          $("empty").hidden = records.length > 0;
          document.body.dataset.records = String(records.length);
        }

        function fillTable(table, values) {
          table.replaceChildren();
          const names = Object.keys(values).sort();
          for (const name of names) {
            const row = el("tr");
            row.append(el("th", "", name), el("td", "", values[name]));
            table.append(row);
          }
          if (names.length === 0) { const row = el("tr"); row.append(el("td", "", "none")); table.append(row); }
        }

        let peaks = [];
        function drawWaveform() {
          const canvas = $("waveform");
          const width = canvas.clientWidth || 800;
          canvas.width = width;
          const context = canvas.getContext("2d");
          const middle = canvas.height / 2;
          context.clearRect(0, 0, width, canvas.height);
          const audio = $("audio");
          const played = audio.duration ? audio.currentTime / audio.duration : 0;
          const step = width / Math.max(peaks.length, 1);
          peaks.forEach((peak, index) => {
            context.fillStyle = index / peaks.length < played ? "#0b5cad" : "#8aa9cc";
            const height = Math.max(1, peak * (canvas.height - 4));
            context.fillRect(index * step, middle - height / 2, Math.max(1, step - 0.5), height);
          });
          canvas.dataset.peaks = String(peaks.length);
        }

        async function loadDetail(id) {
          const record = await getJSON("/api/records/" + id);
          const summary = record.summary;
          $("detail-title").textContent = (kindNames[summary.kind] || summary.kind) + " on " + record.device.name;
          $("detail-meta").textContent = "Record " + summary.id + " · " + summary.status + " · started " + when(summary.startedAt) +
            (summary.endedAt ? " · ended " + when(summary.endedAt) : "") + " · " + summary.errorCount + " errors";
          $("detail").dataset.id = String(summary.id);
          $("detail").dataset.status = summary.status;
          fillTable($("device-info"), Object.assign({ identifier: record.device.identifier, name: record.device.name }, record.device.details));
          fillTable($("parameters"), record.parameters);
          const timeline = $("timeline");
          timeline.replaceChildren();
          for (const entry of record.timeline) {
            const item = el("li", entry.kind);
            const time = el("time", "", new Date(entry.time).toLocaleTimeString());
            time.dateTime = entry.time;
            item.append(time, el("span", "what", entry.kind), el("span", "text", entry.text));
            if (entry.detail) item.append(el("span", "detail", entry.detail));
            timeline.append(item);
          }
          const hasAudio = summary.audioSeconds > 0;
          $("no-audio").hidden = hasAudio;
          $("audio").hidden = !hasAudio;
          $("waveform").hidden = !hasAudio;
          if (hasAudio) {
            const source = "/api/records/" + id + "/audio.wav?seconds=" + summary.audioSeconds;
            const audio = $("audio");
            if (audio.dataset.source !== source && (audio.paused || audio.dataset.recordId !== String(id))) {
              audio.dataset.source = source;
              audio.dataset.recordId = String(id);
              audio.src = source;
            }
            // While audio arrives the waveform is fetched at most every 2 s.
            const now = Date.now();
            const waveform = $("waveform");
            if (waveform.dataset.source !== source && (summary.status !== "running" || !(now - Number(waveform.dataset.fetched || 0) < 2000))) {
              waveform.dataset.source = source;
              waveform.dataset.fetched = String(now);
              peaks = await getJSON("/api/records/" + id + "/waveform?buckets=" + Math.min(2000, Math.max(100, waveform.clientWidth || 800)));
            }
            drawWaveform();
          }
          $("export").href = "/api/records/" + id + "/export";
        }

        async function route() {
          const match = location.hash.match(/^#\\/record\\/(\\d+)$/);
          currentId = match ? match[1] : null;
          document.body.classList.toggle("viewing", currentId !== null);
          $("detail").hidden = currentId === null;
          for (const link of $("records").querySelectorAll("a")) link.classList.toggle("selected", link.dataset.id === currentId);
          if (currentId !== null) { await loadDetail(currentId); $("detail").focus(); }
        }

        // Changes are gathered for 150 ms, then the page refreshes once: a throttle, not a
        // debounce, so a session appending audio many times a second still shows.
        let pendingAll = false;
        const pendingIds = new Set();
        function scheduleRefresh(changedId) {
          if (changedId === null) pendingAll = true; else pendingIds.add(String(changedId));
          if (refreshTimer !== null) return;
          refreshTimer = setTimeout(async () => {
            const all = pendingAll, ids = new Set(pendingIds);
            pendingAll = false;
            pendingIds.clear();
            try {
              await loadList();
              if (currentId !== null && (all || ids.has(String(currentId)))) await loadDetail(currentId);
            } finally {
              refreshTimer = null;
            }
          }, 150);
        }

        function connectLive() {
          const source = new EventSource("/api/live");
          source.onopen = () => { $("live-status").textContent = "live"; $("live-status").classList.add("on"); };
          source.onerror = () => { $("live-status").textContent = "reconnecting…"; $("live-status").classList.remove("on"); };
          source.addEventListener("change", (event) => {
            let id = null;
            try { const change = JSON.parse(event.data); id = change.change === "external" ? null : change.id; } catch (error) { id = null; }
            scheduleRefresh(id);
          });
        }

        function moveSelection(delta) {
          const links = Array.from($("records").querySelectorAll("a"));
          if (links.length === 0) return;
          let index = links.indexOf(document.activeElement);
          if (index < 0) index = links.findIndex((link) => link.dataset.id === currentId);
          index = Math.min(links.length - 1, Math.max(0, index + delta));
          links[index].focus();
        }

        document.addEventListener("keydown", (event) => {
          const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
          if (event.key === "Escape") {
            if (typing) { document.activeElement.blur(); }
            if (currentId !== null) { location.hash = ""; }
            moveSelection(0);
            return;
          }
          if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
          if (event.key === "j" || event.key === "ArrowDown") { moveSelection(1); event.preventDefault(); }
          else if (event.key === "k" || event.key === "ArrowUp") { moveSelection(-1); event.preventDefault(); }
          else if (event.key === "/") { $("filter-device").focus(); event.preventDefault(); }
        });

        document.addEventListener("DOMContentLoaded", async () => {
          for (const id of ["filter-kind", "filter-since", "filter-errors"]) $(id).addEventListener("change", () => loadList());
          $("filter-device").addEventListener("input", () => loadList());
          $("filters").addEventListener("submit", (event) => event.preventDefault());
          $("audio").addEventListener("timeupdate", drawWaveform);
          window.addEventListener("hashchange", route);
          window.addEventListener("resize", () => { if (peaks.length) drawWaveform(); });
          await loadList();
          await route();
          connectLive();
          document.body.dataset.ready = "1";
        });
        """
}
