// A real language model provider (vscode.lm.registerLanguageModelChatProvider) for AgentM's integration
// tests, loaded as a second development extension. A test registers it with the answer it should give
// (`agentmItest.registerModel`), reads the requests it received (`agentmItest.requests`) and removes it.
const vscode = require('vscode');

const VENDOR = 'agentm-itest';
let registration;
const requests = [];

/** The text of a request message, whatever parts it carries. */
function textOf(message) {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts.map((p) => (typeof p === 'string' ? p : typeof p?.value === 'string' ? p.value : '')).join('');
}

function provider(answer) {
  return {
    provideLanguageModelChatInformation: async () => [
      {
        id: 'itest-json',
        name: 'AgentM test model',
        family: 'itest',
        version: '1',
        maxInputTokens: 100000,
        maxOutputTokens: 4096,
        capabilities: {},
      },
    ],
    provideLanguageModelChatResponse: async (_model, messages, _options, progress) => {
      requests.push(messages.map(textOf).join('\n'));
      progress.report(new vscode.LanguageModelTextPart(answer));
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
  };
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentmItest.registerModel', (answer) => {
      registration?.dispose();
      registration = vscode.lm.registerLanguageModelChatProvider(VENDOR, provider(String(answer)));
      return true;
    }),
    vscode.commands.registerCommand('agentmItest.unregisterModel', () => {
      registration?.dispose();
      registration = undefined;
    }),
    vscode.commands.registerCommand('agentmItest.requests', () => requests.splice(0)),
    { dispose: () => registration?.dispose() },
  );
};

exports.deactivate = () => {};
