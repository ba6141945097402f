/* kg interactive graph page. Reads the JSON in #kg-data, draws it with vis-network, stops the
 * physics once the layout is stable, and wires the search box and the type toggles.
 * Graph text is only ever put into the page with textContent (never innerHTML).
 * For tests and benchmarks: window.kg = {network, nodes, edges, stable, stableMs, find, setTypeVisible}
 * (and data, tipElement and the beforeStable hook for a page's own script, such as the overview's)
 * (window.network is the vis Network, as in pyvis pages). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var kg = (window.kg = { stable: false, stableMs: null, errors: [], data: data });

  function tipElement(lines) {
    var box = document.createElement("div");
    lines.forEach(function (line) {
      var el = document.createElement("div");
      el.className = "kg-tip-" + line[0];
      el.textContent = line[1];
      box.appendChild(el);
    });
    return box;
  }

  kg.tipElement = tipElement;
  var big = data.nodes.length > 300;
  var nodes = new vis.DataSet(
    data.nodes.map(function (n) {
      var node = {
        id: n.id, label: n.label, shape: n.shape, size: n.size, kgType: n.type, kgName: n.name,
        color: { background: n.color, border: n.color,
                 highlight: { background: n.color, border: "#222" },
                 hover: { background: n.color, border: "#222" } },
        title: tipElement(n.tip),
        font: { size: n.fontSize || (n.type === "Paper" ? 15 : 12), color: "#222" }
      };
      if (n.shape === "box") { // a label inside a card (the overview's topics)
        node.margin = { top: 7, bottom: 7, left: 10, right: 10 };
        node.shapeProperties = { borderRadius: 6 };
      }
      if (n.focus) {
        node.borderWidth = 4;
        node.color.border = "#111";
        node.font = { size: 18, color: "#111", bold: true };
        node.size = Math.max(n.size, 30);
      }
      return node;
    })
  );
  var edges = new vis.DataSet(
    data.edges.map(function (e) {
      return {
        id: e.id, from: e.from, to: e.to, kgType: e.type, width: e.width,
        color: { color: e.color, highlight: e.color, hover: e.color, opacity: 0.75 },
        title: tipElement(e.tip)
      };
    })
  );

  var options = {
    layout: { randomSeed: 7, improvedLayout: data.improvedLayout },
    nodes: { borderWidth: 1, font: { face: "system-ui, sans-serif" } },
    edges: {
      // The overview's links between topics have no direction.
      arrows: { to: { enabled: !data.overview, scaleFactor: 0.35 } },
      smooth: big ? false : { type: "continuous" },
      selectionWidth: 2
    },
    physics: {
      solver: "forceAtlas2Based",
      // The overview's topics are few cards that shared entities pull together: less push
      // and shorter springs than for the graph, the cards' overlaps undone afterwards.
      forceAtlas2Based: data.overview
        ? { gravitationalConstant: -120, centralGravity: 0.015, springLength: 90,
            springConstant: 0.05, avoidOverlap: 1 }
        : { gravitationalConstant: -45, centralGravity: 0.012,
            springLength: 80, springConstant: 0.08, avoidOverlap: 0.3 },
      minVelocity: 1.0,
      // Iterations dominate the time to a still picture (benchmarks/html_render.py): 400 are
      // plenty once forceAtlas2 has a few hundred nodes to push around.
      stabilization: { enabled: true, iterations: data.nodes.length > 100 ? 400 : 1000,
                       updateInterval: 20, fit: true }
    },
    interaction: { hover: true, tooltipDelay: 120, hideEdgesOnDrag: big, hideEdgesOnZoom: big }
  };

  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, options);
  kg.network = window.network = network;
  kg.nodes = nodes;
  kg.edges = edges;

  var progress = document.getElementById("kg-progress");
  var pct = document.getElementById("kg-progress-pct");
  network.on("stabilizationProgress", function (p) {
    pct.textContent = Math.round((100 * p.iterations) / p.total) + "%";
  });
  function markStable() {
    if (kg.stable) return;
    network.setOptions({ physics: false }); // the picture holds still from now on
    if (kg.beforeStable) kg.beforeStable(); // a page's last touch to the layout
    progress.className = "done";
    network.fit();
    // A few big nodes would be blown up to fill the screen: a page may cap the zoom.
    if (data.maxScale && network.getScale() > data.maxScale) {
      network.moveTo({ scale: data.maxScale });
    }
    network.once("afterDrawing", function () {
      kg.stableMs = performance.now();
      kg.stable = true;
      document.body.setAttribute("data-kg-stable", "1");
    });
    network.redraw();
    var focus = data.nodes.filter(function (n) { return n.focus; })[0];
    if (focus) network.selectNodes([focus.id]);
  }
  network.once("stabilizationIterationsDone", markStable);
  if (data.nodes.length === 0) markStable();

  if (data.searchPlaceholder) {
    document.getElementById("kg-search-input").placeholder = data.searchPlaceholder;
  }

  // --- legend and type toggles -------------------------------------------------------------
  var hiddenTypes = {};
  function setTypeVisible(type, visible) {
    hiddenTypes[type] = !visible;
    var nodeUpdates = [], hiddenIds = {};
    nodes.forEach(function (n) {
      var hide = !!hiddenTypes[n.kgType];
      if (hide) hiddenIds[n.id] = true;
      if (!!n.hidden !== hide) nodeUpdates.push({ id: n.id, hidden: hide });
    });
    nodes.update(nodeUpdates);
    var edgeUpdates = [];
    edges.forEach(function (e) {
      var hide = !!(hiddenIds[e.from] || hiddenIds[e.to]);
      if (!!e.hidden !== hide) edgeUpdates.push({ id: e.id, hidden: hide });
    });
    edges.update(edgeUpdates);
    var box = document.getElementById("kg-toggle-" + type);
    if (box) box.checked = visible;
  }
  kg.setTypeVisible = setTypeVisible;

  var legendNodes = document.getElementById("kg-legend-nodes");
  data.legend.forEach(function (item) {
    var row = document.createElement("div");
    row.className = "kg-legend-row";
    var label = document.createElement("label");
    if (item.toggle) {
      var box = document.createElement("input");
      box.type = "checkbox";
      box.checked = true;
      box.id = "kg-toggle-" + item.type;
      box.addEventListener("change", function () { setTypeVisible(item.type, box.checked); });
      label.appendChild(box);
    }
    var sym = document.createElement("span");
    sym.className = "kg-symbol";
    sym.style.color = item.color;
    sym.textContent = item.symbol;
    label.appendChild(sym);
    label.appendChild(document.createTextNode(item.type + " "));
    var count = document.createElement("span");
    count.className = "kg-count";
    count.textContent = "(" + item.count + ")";
    label.appendChild(count);
    row.appendChild(label);
    legendNodes.appendChild(row);
  });
  var legendEdges = document.getElementById("kg-legend-edges");
  data.edgeLegend.forEach(function (item) {
    var row = document.createElement("div");
    row.className = "kg-legend-row";
    var line = document.createElement("span");
    line.className = "kg-line";
    line.style.background = item.color;
    row.appendChild(line);
    row.appendChild(document.createTextNode(item.type));
    legendEdges.appendChild(row);
  });

  // --- search ------------------------------------------------------------------------------
  var names = document.getElementById("kg-names");
  var seen = {};
  data.nodes
    .map(function (n) { return n.name; })
    .sort()
    .forEach(function (name) {
      if (seen[name]) return;
      seen[name] = true;
      var opt = document.createElement("option");
      opt.value = name;
      names.appendChild(opt);
    });

  function find(query) {
    var q = String(query || "").trim().toLowerCase();
    if (!q) return null;
    var all = data.nodes, tests = [
      function (n) { return n.name.toLowerCase() === q || n.id.toLowerCase() === q; },
      function (n) { return n.name.toLowerCase().indexOf(q) === 0; },
      function (n) { return n.name.toLowerCase().indexOf(q) >= 0; }
    ];
    for (var i = 0; i < tests.length; i++) {
      var hits = all.filter(tests[i]).filter(function (n) { return !hiddenTypes[n.type]; });
      if (hits.length) {
        var id = hits[0].id;
        network.selectNodes([id]);
        network.focus(id, { scale: 1.3, animation: { duration: 400 } });
        return id;
      }
    }
    return null;
  }
  kg.find = find;
  var msg = document.getElementById("kg-search-msg");
  document.getElementById("kg-search").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var q = document.getElementById("kg-search-input").value;
    // A page may search more than its nodes (the overview: the papers of its topics).
    var found = find(q) || (kg.findMore ? kg.findMore(q) : null);
    msg.textContent = found ? "" : "no node matches “" + q + "”";
  });
})();
