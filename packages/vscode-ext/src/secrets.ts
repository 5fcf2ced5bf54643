import type * as vscode from 'vscode';

/** The SecretStorage key of the OpenAI-compatible provider's API key (never kept in settings). */
export const API_KEY_SECRET = 'agentm.providers.apiKey';

/** The provider API key, or undefined when none is set. */
export async function providerApiKey(secrets: vscode.SecretStorage): Promise<string | undefined> {
  const key = await secrets.get(API_KEY_SECRET);
  return key === undefined || key === '' ? undefined : key;
}
