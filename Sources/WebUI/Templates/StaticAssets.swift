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
        form.card { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; max-width: 560px; }
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
        ul.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px; }
        ul.products.cards li { border: 1px solid #ddd; border-radius: 8px; padding: 8px; background: var(--card); display: flex; flex-direction: column; gap: 6px; }
        .product-card { display: flex; flex-direction: column; gap: 2px; color: inherit; text-decoration: none; }
        .product-card .cover { display: block; aspect-ratio: 4 / 3; background: #eee; border-radius: 6px; overflow: hidden; margin-bottom: 4px; }
        .product-card .cover img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .product-card .title { color: var(--accent); text-decoration: underline; font-weight: 600; }
        .product-card .status { color: #1b6b2a; font-size: 14px; }
        .no-photo { display: flex; align-items: center; justify-content: center; height: 100%; color: var(--muted); font-size: 14px; }
        ul.photo-editor { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 12px; }
        ul.photo-editor li { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; }
        ul.photo-editor img { width: 100%; height: auto; border-radius: 6px; background: #eee; }
        .photo-message img { max-width: 100%; height: auto; border-radius: 6px; margin: 4px 4px 0 0; vertical-align: top; }
        progress { width: 100%; }
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
        @media (max-width: 480px) { nav { gap: 4px 10px; } main { padding: 8px; } ul.cards { grid-template-columns: 1fr; } }
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
              var field = compose.querySelector("textarea");
              var files = compose.querySelector("input[type=file]");
              fetch(compose.action, { method: "POST", body: new FormData(compose), redirect: "manual", credentials: "same-origin" })
                .then(function (response) {
                  if (response.type === "opaqueredirect" || response.ok) { field.value = ""; if (files) files.value = ""; field.focus(); }
                  else { compose.submit(); }
                })
                .catch(function () { compose.submit(); });
            });
          }
          // Forms with files: photos picked for a listing can be seen, ordered and removed before
          // they are sent, and every upload shows its progress. Without the script, each is a
          // plain multipart form.
          Array.prototype.forEach.call(document.querySelectorAll("form[data-upload]"), function (form) {
            var input = form.querySelector("input[type=file]");
            var preview = form.querySelector("[data-preview]");
            var chosen = null;
            if (form.hasAttribute("data-photo-picker") && input && preview && window.URL && URL.createObjectURL) {
              chosen = [];
              var draw = function () {
                preview.innerHTML = "";
                preview.hidden = chosen.length === 0;
                chosen.forEach(function (file, index) {
                  var item = document.createElement("li");
                  var image = document.createElement("img");
                  image.src = URL.createObjectURL(file);
                  image.alt = "Chosen photo " + (index + 1);
                  item.appendChild(image);
                  var label = document.createElement("span");
                  label.textContent = index === 0 ? "Photo 1 (the cover)" : "Photo " + (index + 1);
                  item.appendChild(label);
                  var buttons = document.createElement("span");
                  var add = function (text, name, act) {
                    var button = document.createElement("button");
                    button.type = "button";
                    button.className = "small";
                    button.textContent = text;
                    button.setAttribute("aria-label", name);
                    button.addEventListener("click", function () { act(); draw(); });
                    buttons.appendChild(button);
                  };
                  var move = function (to) { chosen.splice(to, 0, chosen.splice(index, 1)[0]); };
                  if (index > 0) add("←", "Move photo " + (index + 1) + " earlier", function () { move(index - 1); });
                  if (index < chosen.length - 1) add("→", "Move photo " + (index + 1) + " later", function () { move(index + 1); });
                  add("Remove", "Remove photo " + (index + 1), function () { chosen.splice(index, 1); });
                  item.appendChild(buttons);
                  preview.appendChild(item);
                });
              };
              input.addEventListener("change", function () {
                Array.prototype.forEach.call(input.files, function (file) { chosen.push(file); });
                input.value = "";
                draw();
              });
            }
            if (!window.XMLHttpRequest || !window.FormData) return;
            form.addEventListener("submit", function (event) {
              event.preventDefault();
              var data = new FormData(form);
              if (chosen) {
                data.delete("photos");
                chosen.forEach(function (file) { data.append("photos", file, file.name); });
              }
              var bar = form.querySelector("progress");
              var send = form.querySelector("button[type=submit]");
              if (send) send.disabled = true;
              var request = new XMLHttpRequest();
              request.open("POST", form.action);
              request.upload.addEventListener("progress", function (progress) {
                if (bar && progress.lengthComputable) { bar.hidden = false; bar.value = Math.round(100 * progress.loaded / progress.total); }
              });
              request.addEventListener("load", function () {
                var landed = request.responseURL || form.action;
                if (request.status < 400 && landed !== form.action) { window.location.assign(landed); return; }
                // A page came back (what was refused, or what was made of it): show it as it is.
                document.open();
                document.write(request.responseText);
                document.close();
              });
              request.addEventListener("error", function () { if (send) send.disabled = false; });
              request.send(data);
            });
          });
        })();
        """
}
