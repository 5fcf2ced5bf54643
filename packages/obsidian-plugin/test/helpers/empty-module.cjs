// What `obsidian` resolves to while Dataview's library loads (see dataview.ts).
module.exports = {};
