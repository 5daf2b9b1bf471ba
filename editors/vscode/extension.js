// Starts `torchtidy lsp` for C and C++ files. The server does the work
// (docs/editors.md); this only tells VS Code how to run it.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const settings = vscode.workspace.getConfiguration('torchtidy');
  const server = {
    command: settings.get('path', 'torchtidy'),
    args: ['lsp', ...settings.get('arguments', [])],
  };
  client = new LanguageClient('torchtidy', 'torchtidy', server, {
    documentSelector: [
      { scheme: 'file', language: 'cpp' },
      { scheme: 'file', language: 'c' },
    ],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
