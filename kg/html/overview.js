/* kg topic overview: the panel a click on a topic opens (its entities and papers), and the
 * search for papers by title. Runs after app.js, on the network it drew (window.kg).
 * Graph text is only ever put into the page with textContent (never innerHTML); a paper's
 * link is made only from an http(s) address.
 * For tests: kg.openTopic(id), kg.closeTopic(), kg.openTopicId (the topic shown, or null). */
(function () {
  "use strict";
  var kg = window.kg, data = kg.data, network = kg.network;
  var panel = document.getElementById("kg-panel");
  kg.openTopicId = null;
  document.body.classList.add("kg-overview");

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function plural(n, one, many) {
    return n.toLocaleString("en") + " " + (n === 1 ? one : many);
  }

  function entityList(topic) {
    var list = el("ul", "kg-panel-entities");
    topic.entities.forEach(function (item) {
      var style = data.entityStyle[item[0]] || { color: "#777", symbol: "●" };
      var li = el("li");
      var sym = el("span", "kg-symbol", style.symbol);
      sym.style.color = style.color;
      li.appendChild(sym);
      li.appendChild(el("span", "kg-panel-entity", item[1]));
      li.appendChild(el("span", "kg-count", " " + item[0] + " · " + plural(item[2], "paper", "papers")));
      list.appendChild(li);
    });
    return list;
  }

  function paperList(topic) {
    var list = el("ol", "kg-panel-papers");
    topic.papers.forEach(function (row) {
      var li = el("li");
      li.setAttribute("data-paper", row[0]);
      var url = /^https?:\/\//i.test(row[3]) ? row[3] : "";
      var head = el(url ? "a" : "span", "kg-panel-title", row[1]);
      if (url) {
        head.href = url;
        head.target = "_blank";
        head.rel = "noopener noreferrer";
      }
      li.appendChild(head);
      if (row[2]) li.appendChild(el("div", "kg-tip-m", row[2]));
      if (row[4]) li.appendChild(el("div", "kg-panel-excerpt", row[4]));
      list.appendChild(li);
    });
    return list;
  }

  function openTopic(id) {
    var topic = data.topics[id];
    if (!topic) return false;
    panel.textContent = "";
    var close = el("button", "kg-panel-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Close");
    close.addEventListener("click", closeTopic);
    panel.appendChild(close);
    panel.appendChild(el("h2", "kg-panel-name", topic.name));
    panel.appendChild(el("div", "kg-tip-m", "Topic · " + plural(topic.size, "paper", "papers")));
    if (topic.entities.length) {
      panel.appendChild(el("h3", null, "Its most specific entities"));
      panel.appendChild(entityList(topic));
    }
    panel.appendChild(el("h3", null, "Papers (" + topic.papers.length.toLocaleString("en") + ")"));
    panel.appendChild(paperList(topic));
    var opening = panel.hidden;
    panel.hidden = false;
    panel.scrollTop = 0;
    kg.openTopicId = id;
    network.selectNodes([id]);
    if (opening) reframe();
    return true;
  }

  function closeTopic() {
    panel.hidden = true;
    kg.openTopicId = null;
    network.unselectAll();
    reframe();
  }

  // The picture makes room for the panel (and takes it back). With the panel open, all of
  // it fits beside the panel if it can at the same zoom; else the chosen topic moves to the
  // middle of what is left, at the same zoom. Closed, all of it fits again.
  function reframe() {
    var scale = network.getScale(); // (a resize scales the view to keep what it showed)
    document.body.classList.toggle("kg-panel-open", !panel.hidden);
    network.setSize("100%", "100%");
    network.redraw();
    network.fit();
    var fitted = network.getScale();
    if (kg.openTopicId && fitted < scale) {
      network.focus(kg.openTopicId, { scale: scale, animation: false });
    } else if (data.maxScale && fitted > data.maxScale) {
      network.moveTo({ scale: data.maxScale });
    }
  }

  network.on("click", function (params) {
    if (params.nodes.length) openTopic(params.nodes[0]);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && !panel.hidden) closeTopic();
  });

  // The search box finds topics by name (app.js); failing that, a paper by title: its topic
  // opens with the paper marked.
  kg.findMore = function (query) {
    var q = String(query || "").trim().toLowerCase();
    if (!q) return null;
    var ids = Object.keys(data.topics);
    for (var pass = 0; pass < 2; pass++) {
      for (var i = 0; i < ids.length; i++) {
        var papers = data.topics[ids[i]].papers;
        for (var j = 0; j < papers.length; j++) {
          var title = papers[j][1].toLowerCase();
          if (pass === 0 ? title === q : title.indexOf(q) >= 0) {
            openTopic(ids[i]);
            network.focus(ids[i], { scale: 1, animation: { duration: 400 } });
            var li = panel.querySelector('li[data-paper="' + CSS.escape(papers[j][0]) + '"]');
            if (li) {
              li.className = "kg-panel-found";
              li.scrollIntoView({ block: "center" });
            }
            return papers[j][0];
          }
        }
      }
    }
    return null;
  };

  // Physics keeps topics about apart but lets the cards of close ones overlap: once it is
  // done, overlapping cards are pushed apart (along the axis they overlap least), a few
  // pixels more than their own size, until none does.
  kg.beforeStable = function () {
    var ids = kg.nodes.getIds().sort(), pos = network.getPositions(ids), gap = 8;
    var x = [], y = [], w = [], h = [];
    ids.forEach(function (id, i) {
      var box = network.getBoundingBox(id);
      x[i] = pos[id].x;
      y[i] = pos[id].y;
      w[i] = box.right - box.left + gap;
      h[i] = box.bottom - box.top + gap;
    });
    for (var round = 0; round < 300; round++) {
      var moved = false;
      for (var i = 0; i < ids.length; i++) {
        for (var j = i + 1; j < ids.length; j++) {
          var dx = x[j] - x[i], dy = y[j] - y[i];
          var ox = (w[i] + w[j]) / 2 - Math.abs(dx), oy = (h[i] + h[j]) / 2 - Math.abs(dy);
          if (ox <= 0 || oy <= 0) continue;
          moved = true;
          if (ox < oy) {
            var sx = (dx < 0 ? -1 : 1) * ox / 2;
            x[i] -= sx;
            x[j] += sx;
          } else {
            var sy = (dy < 0 ? -1 : 1) * oy / 2;
            y[i] -= sy;
            y[j] += sy;
          }
        }
      }
      if (!moved) break;
    }
    ids.forEach(function (id, i) { network.moveNode(id, x[i], y[i]); });
  };

  kg.openTopic = openTopic;
  kg.closeTopic = closeTopic;
})();
