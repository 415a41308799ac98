/// The stylesheet and the script, our own and small: no build step.
enum StaticAssets {
    /// `/static/app.css`: readable at 360 px and on a desktop.
    static let css = """
        :root { --fg: #1d1d1f; --muted: #5a5a60; --accent: #0b5cad; --bg: #fafafa; --card: #fff; --error: #a4001d; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--card); padding: 4px 8px; }
        .bar { background: var(--card); border-bottom: 1px solid #ddd; }
        nav { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; max-width: 960px; margin: 0 auto; padding: 8px 16px; }
        nav .brand { font-weight: 700; margin-right: auto; }
        main { max-width: 960px; margin: 0 auto; padding: 16px; }
        a { color: var(--accent); }
        a:focus, button:focus, input:focus, textarea:focus { outline: 3px solid #f5a623; outline-offset: 2px; }
        label.choice { display: block; font-weight: normal; margin: 4px 0; }
        fieldset { border: 1px solid #ccc; border-radius: 6px; }
        .danger button, button.danger { background: #b00020; border-color: #b00020; }
        .card { background: var(--card); border: 1px solid #ddd; border-radius: 8px; padding: 16px; margin: 16px 0; }
        form.card { display: grid; gap: 8px; max-width: 560px; }
        form.inline { display: inline; }
        label { font-weight: 600; }
        input, textarea, button, select { font: inherit; padding: 8px; border: 1px solid #888; border-radius: 6px; max-width: 100%; }
        textarea { min-height: 4em; }
        button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
        .search, .filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        .filters { border: 1px solid #ccc; border-radius: 6px; margin: 0; }
        .search .field-error { flex-basis: 100%; margin: 0; }
        ul.products, ul.conversations, ul.notifications, ol.messages { list-style: none; padding: 0; }
        ul.products li, ul.conversations li, ul.notifications li { padding: 8px 0; border-bottom: 1px solid #e5e5e5; }
        .price { font-weight: 600; }
        ul.products img.cover { object-fit: cover; border-radius: 4px; vertical-align: middle; margin-right: 8px; }
        ul.photos { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 8px; }
        ul.photos img { object-fit: contain; max-width: 100%; height: auto; border-radius: 6px; background: #eee; }
        .excerpt, time { color: var(--muted); }
        .badge { color: var(--error); font-weight: 600; }
        .message { padding: 6px 10px; margin: 6px 0; background: var(--card); border-radius: 8px; max-width: 40em; }
        .message.mine { margin-left: auto; background: #e8f1fb; }
        .who { font-weight: 600; }
        .offer-line .body { font-style: italic; }
        button.small { padding: 2px 10px; font-size: 14px; margin-left: 6px; }
        .stars { color: #8a5a00; letter-spacing: 1px; }
        ul.reviews { list-style: none; padding: 0; } ul.reviews li { padding: 8px 0; border-bottom: 1px solid #e5e5e5; } ul.reviews p { margin: 4px 0 0; }
        .status.taken { color: var(--muted); font-weight: 600; }
        .offer-card { border: 1px solid #c9a227; border-radius: 8px; padding: 8px 10px; margin-top: 6px; background: #fffbea; }
        .offer-card p { margin: 0 0 6px; }
        .offer-card button { margin-right: 6px; }
        .standing.open { color: #8a5a00; } .standing.accepted { color: #1b6b2a; } .standing.declined, .standing.withdrawn { color: var(--muted); }
        .state.queued, .state.sending { color: #8a5a00; }
        .state.sent { color: #1b6b2a; }
        .state.failed, .error, .field-error { color: var(--error); }
        .notice { background: #e8f6ec; padding: 8px; border-radius: 6px; }
        li.unread { font-weight: 600; }
        @media (max-width: 480px) { nav { gap: 4px 10px; } main { padding: 8px; } }
        """

    /// `/static/app.js`: live fragments over Server-Sent Events, and upload progress. Every
    /// action works without it.
    static let javascript = """
        "use strict";
        (function () {
          var main = document.getElementById("main");
          var live = main && main.getAttribute("data-live");
          if (live && window.EventSource) {
            var source = new EventSource(live);
            source.addEventListener("fragment", function (event) {
              var update = JSON.parse(event.data);
              var target = document.getElementById(update.id);
              if (!target) return;
              var holder = document.createElement("div");
              holder.innerHTML = update.html;
              if (holder.firstElementChild) target.replaceWith(holder.firstElementChild);
            });
          }
          var compose = document.querySelector("form[data-compose]");
          if (compose && live && window.fetch) {
            // With live updates on, a message is posted in the background: the list shows it
            // queued at once and sent once delivered, even while the server is away.
            compose.addEventListener("submit", function (event) {
              event.preventDefault();
              var body = new URLSearchParams(new FormData(compose));
              var field = compose.querySelector("textarea");
              fetch(compose.action, { method: "POST", body: body, redirect: "manual", credentials: "same-origin" })
                .then(function (response) {
                  if (response.type === "opaqueredirect" || response.ok) { field.value = ""; field.focus(); }
                  else { compose.submit(); }
                })
                .catch(function () { compose.submit(); });
            });
          }
          var upload = document.querySelector("form[data-upload]");
          if (upload && window.XMLHttpRequest && window.FormData) {
            upload.addEventListener("submit", function (event) {
              event.preventDefault();
              var bar = document.getElementById("upload-progress");
              var request = new XMLHttpRequest();
              request.open("POST", upload.action);
              request.upload.addEventListener("progress", function (progress) {
                if (progress.lengthComputable) { bar.hidden = false; bar.value = Math.round(100 * progress.loaded / progress.total); }
              });
              request.addEventListener("load", function () {
                // A refusal is shown as without the script: post the form the plain way.
                if (request.status >= 400) { upload.submit(); return; }
                window.location.assign(request.responseURL || "/profile");
              });
              request.send(new FormData(upload));
            });
          }
        })();
        """
}
