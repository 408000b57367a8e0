export namespace agui {
	
	export class Interrupt {
	    id: string;
	    reason: string;
	    message?: string;
	    toolCallId?: string;
	    responseSchema?: number[];
	    expiresAt?: string;
	    metadata?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Interrupt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.reason = source["reason"];
	        this.message = source["message"];
	        this.toolCallId = source["toolCallId"];
	        this.responseSchema = source["responseSchema"];
	        this.expiresAt = source["expiresAt"];
	        this.metadata = source["metadata"];
	    }
	}
	export class ResumeEntry {
	    interruptId: string;
	    status: string;
	    payload?: number[];
	    metadata?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new ResumeEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.interruptId = source["interruptId"];
	        this.status = source["status"];
	        this.payload = source["payload"];
	        this.metadata = source["metadata"];
	    }
	}

}

export namespace app {
	
	export class ClientToolAnswer {
	    toolCallId: string;
	    content: string;
	    isError?: boolean;
	    cancelled?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ClientToolAnswer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.toolCallId = source["toolCallId"];
	        this.content = source["content"];
	        this.isError = source["isError"];
	        this.cancelled = source["cancelled"];
	    }
	}
	export class RememberScope {
	    scope: string;
	    pattern?: string;
	    arg?: string;
	    glob?: string;
	    duration?: string;
	    deny?: boolean;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new RememberScope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.pattern = source["pattern"];
	        this.arg = source["arg"];
	        this.glob = source["glob"];
	        this.duration = source["duration"];
	        this.deny = source["deny"];
	        this.reason = source["reason"];
	    }
	}
	export class ItemAnswer {
	    interruptId: string;
	    status: string;
	    payload?: number[];
	    metadata?: Record<string, any>;
	    remember?: RememberScope;
	
	    static createFrom(source: any = {}) {
	        return new ItemAnswer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.interruptId = source["interruptId"];
	        this.status = source["status"];
	        this.payload = source["payload"];
	        this.metadata = source["metadata"];
	        this.remember = this.convertValues(source["remember"], RememberScope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AnswerBatch {
	    answers: ItemAnswer[];
	    clientResults: ClientToolAnswer[];
	
	    static createFrom(source: any = {}) {
	        return new AnswerBatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.answers = this.convertValues(source["answers"], ItemAnswer);
	        this.clientResults = this.convertValues(source["clientResults"], ClientToolAnswer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AnswerResult {
	    continued: boolean;
	    runId?: string;
	    waiting: string[];
	
	    static createFrom(source: any = {}) {
	        return new AnswerResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.continued = source["continued"];
	        this.runId = source["runId"];
	        this.waiting = source["waiting"];
	    }
	}
	export class AttachmentData {
	    id: string;
	    name: string;
	    mimeType: string;
	    size: number;
	    pages?: number;
	    data: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentData(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.size = source["size"];
	        this.pages = source["pages"];
	        this.data = source["data"];
	    }
	}
	export class AttachmentInput {
	    name: string;
	    mimeType: string;
	    data: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	    }
	}
	
	export class ConnectionResult {
	    ok: boolean;
	    message: string;
	    models: string[];
	
	    static createFrom(source: any = {}) {
	        return new ConnectionResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.message = source["message"];
	        this.models = source["models"];
	    }
	}
	export class Export {
	    filename: string;
	    content: string;
	
	    static createFrom(source: any = {}) {
	        return new Export(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.filename = source["filename"];
	        this.content = source["content"];
	    }
	}
	
	export class MCPCompleteRequest {
	    server: string;
	    ref: mcp.CompleteRef;
	    argument: string;
	    value: string;
	    known?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new MCPCompleteRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.ref = this.convertValues(source["ref"], mcp.CompleteRef);
	        this.argument = source["argument"];
	        this.value = source["value"];
	        this.known = source["known"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPConfigError {
	    line: number;
	    column: number;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPConfigError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.column = source["column"];
	        this.message = source["message"];
	    }
	}
	export class MCPServerEntry {
	    name: string;
	    config: mcp.ServerConfig;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.config = this.convertValues(source["config"], mcp.ServerConfig);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPConfigView {
	    path: string;
	    text: string;
	    servers: MCPServerEntry[];
	    error?: MCPConfigError;
	    claudeDesktopPath: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPConfigView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.text = source["text"];
	        this.servers = this.convertValues(source["servers"], MCPServerEntry);
	        this.error = this.convertValues(source["error"], MCPConfigError);
	        this.claudeDesktopPath = source["claudeDesktopPath"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class RuleView {
	    id: string;
	    tool: string;
	    scope: string;
	    pattern?: string;
	    createdAt: number;
	    effect?: string;
	    arg?: string;
	    glob?: string;
	    reason?: string;
	    duration?: string;
	    expiresAt?: number;
	    threadId?: string;
	    turnId?: string;
	    lastUsedAt?: number;
	    uses?: number;
	    description: string;
	    refuses?: string;
	
	    static createFrom(source: any = {}) {
	        return new RuleView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.scope = source["scope"];
	        this.pattern = source["pattern"];
	        this.createdAt = source["createdAt"];
	        this.effect = source["effect"];
	        this.arg = source["arg"];
	        this.glob = source["glob"];
	        this.reason = source["reason"];
	        this.duration = source["duration"];
	        this.expiresAt = source["expiresAt"];
	        this.threadId = source["threadId"];
	        this.turnId = source["turnId"];
	        this.lastUsedAt = source["lastUsedAt"];
	        this.uses = source["uses"];
	        this.description = source["description"];
	        this.refuses = source["refuses"];
	    }
	}
	export class SendResult {
	    threadId: string;
	    queued: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SendResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.threadId = source["threadId"];
	        this.queued = source["queued"];
	    }
	}
	export class SettingsView {
	    settings: config.Settings;
	    sources: Record<string, string>;
	    keyStorage?: secrets.KeyStorage;
	    keyState?: string;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], config.Settings);
	        this.sources = source["sources"];
	        this.keyStorage = this.convertValues(source["keyStorage"], secrets.KeyStorage);
	        this.keyState = source["keyState"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    mode: string;
	    configured: boolean;
	    endpoint: string;
	    model: string;
	    detected?: string;
	    problem?: string;
	    readOnly?: string;
	    saveProblem?: string;
	    bench?: boolean;
	    modelAcceptsImages?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.configured = source["configured"];
	        this.endpoint = source["endpoint"];
	        this.model = source["model"];
	        this.detected = source["detected"];
	        this.problem = source["problem"];
	        this.readOnly = source["readOnly"];
	        this.saveProblem = source["saveProblem"];
	        this.bench = source["bench"];
	        this.modelAcceptsImages = source["modelAcceptsImages"];
	    }
	}
	export class ThreadListItem {
	    id: string;
	    title: string;
	    pinned: boolean;
	    createdAt: number;
	    updatedAt: number;
	    options: history.ThreadOptions;
	    running: boolean;
	    waiting: number;
	
	    static createFrom(source: any = {}) {
	        return new ThreadListItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.pinned = source["pinned"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.options = this.convertValues(source["options"], history.ThreadOptions);
	        this.running = source["running"];
	        this.waiting = source["waiting"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ThreadOptionsInput {
	    endpointId?: string;
	    model?: string;
	    systemPrompt?: string;
	    tools?: string[];
	    allTools?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ThreadOptionsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.endpointId = source["endpointId"];
	        this.model = source["model"];
	        this.systemPrompt = source["systemPrompt"];
	        this.tools = source["tools"];
	        this.allTools = source["allTools"];
	    }
	}
	export class ThreadPage {
	    threads: ThreadListItem[];
	    nextCursor: string;
	
	    static createFrom(source: any = {}) {
	        return new ThreadPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.threads = this.convertValues(source["threads"], ThreadListItem);
	        this.nextCursor = source["nextCursor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ThreadView {
	    thread: history.Thread;
	    messages: history.Message[];
	    running: boolean;
	    runId?: string;
	    queued: string[];
	    interrupts: agui.Interrupt[];
	    interruptKinds: Record<string, string>;
	    clientTools: history.ClientToolCall[];
	    toolStates: Record<string, string>;
	    answered: string[];
	    eventSeq: number;
	    editedArgs: Record<string, string>;
	    usage: history.ThreadUsage;
	
	    static createFrom(source: any = {}) {
	        return new ThreadView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.thread = this.convertValues(source["thread"], history.Thread);
	        this.messages = this.convertValues(source["messages"], history.Message);
	        this.running = source["running"];
	        this.runId = source["runId"];
	        this.queued = source["queued"];
	        this.interrupts = this.convertValues(source["interrupts"], agui.Interrupt);
	        this.interruptKinds = source["interruptKinds"];
	        this.clientTools = this.convertValues(source["clientTools"], history.ClientToolCall);
	        this.toolStates = source["toolStates"];
	        this.answered = source["answered"];
	        this.eventSeq = source["eventSeq"];
	        this.editedArgs = source["editedArgs"];
	        this.usage = this.convertValues(source["usage"], history.ThreadUsage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolOutput {
	    content: string;
	    isError?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolOutput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.isError = source["isError"];
	    }
	}

}

export namespace config {
	
	export class ModelPrice {
	    inputPerMTok: number;
	    outputPerMTok: number;
	
	    static createFrom(source: any = {}) {
	        return new ModelPrice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.inputPerMTok = source["inputPerMTok"];
	        this.outputPerMTok = source["outputPerMTok"];
	    }
	}
	export class Endpoint {
	    id: string;
	    name: string;
	    baseUrl: string;
	    apiKey: string;
	    models: string[];
	    prices: Record<string, ModelPrice>;
	    source: string;
	    isDefault: boolean;
	    defaultModel: string;
	    keyState?: string;
	
	    static createFrom(source: any = {}) {
	        return new Endpoint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.baseUrl = source["baseUrl"];
	        this.apiKey = source["apiKey"];
	        this.models = source["models"];
	        this.prices = this.convertValues(source["prices"], ModelPrice, true);
	        this.source = source["source"];
	        this.isDefault = source["isDefault"];
	        this.defaultModel = source["defaultModel"];
	        this.keyState = source["keyState"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Preset {
	    id: string;
	    name: string;
	    instructions: string;
	    endpointId: string;
	    model: string;
	    tools?: string[];
	    builtin: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.instructions = source["instructions"];
	        this.endpointId = source["endpointId"];
	        this.model = source["model"];
	        this.tools = source["tools"];
	        this.builtin = source["builtin"];
	    }
	}
	export class Settings {
	    baseUrl: string;
	    apiKey: string;
	    model: string;
	    workspace: string;
	    loopGuard: number;
	    theme: string;
	    enableWriteTools: boolean;
	    modelAcceptsImages: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.baseUrl = source["baseUrl"];
	        this.apiKey = source["apiKey"];
	        this.model = source["model"];
	        this.workspace = source["workspace"];
	        this.loopGuard = source["loopGuard"];
	        this.theme = source["theme"];
	        this.enableWriteTools = source["enableWriteTools"];
	        this.modelAcceptsImages = source["modelAcceptsImages"];
	    }
	}

}

export namespace history {
	
	export class AttachmentRef {
	    id: string;
	    name: string;
	    mimeType: string;
	    size: number;
	    pages?: number;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.size = source["size"];
	        this.pages = source["pages"];
	    }
	}
	export class Branch {
	    index: number;
	    count: number;
	    siblings: string[];
	
	    static createFrom(source: any = {}) {
	        return new Branch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.count = source["count"];
	        this.siblings = source["siblings"];
	    }
	}
	export class ClientToolCall {
	    toolCallId: string;
	    threadId: string;
	    runId: string;
	    toolName: string;
	    arguments: string;
	    state: string;
	    result?: string;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new ClientToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.toolCallId = source["toolCallId"];
	        this.threadId = source["threadId"];
	        this.runId = source["runId"];
	        this.toolName = source["toolName"];
	        this.arguments = source["arguments"];
	        this.state = source["state"];
	        this.result = source["result"];
	        this.createdAt = source["createdAt"];
	    }
	}
	export class LedgerEntry {
	    seq: number;
	    at: number;
	    kind: string;
	    threadId?: string;
	    runId?: string;
	    callId?: string;
	    tool?: string;
	    server?: string;
	    transport?: string;
	    ruleId?: string;
	    arguments?: string;
	    diff?: string;
	    redacted?: boolean;
	    argsHash?: string;
	    reason?: string;
	    outcome?: string;
	    prevHash: string;
	    hash: string;
	
	    static createFrom(source: any = {}) {
	        return new LedgerEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.at = source["at"];
	        this.kind = source["kind"];
	        this.threadId = source["threadId"];
	        this.runId = source["runId"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.server = source["server"];
	        this.transport = source["transport"];
	        this.ruleId = source["ruleId"];
	        this.arguments = source["arguments"];
	        this.diff = source["diff"];
	        this.redacted = source["redacted"];
	        this.argsHash = source["argsHash"];
	        this.reason = source["reason"];
	        this.outcome = source["outcome"];
	        this.prevHash = source["prevHash"];
	        this.hash = source["hash"];
	    }
	}
	export class LedgerFilter {
	    threadId?: string;
	    tool?: string;
	    server?: string;
	    kind?: string;
	    since?: number;
	    until?: number;
	    search?: string;
	    before?: number;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new LedgerFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.threadId = source["threadId"];
	        this.tool = source["tool"];
	        this.server = source["server"];
	        this.kind = source["kind"];
	        this.since = source["since"];
	        this.until = source["until"];
	        this.search = source["search"];
	        this.before = source["before"];
	        this.limit = source["limit"];
	    }
	}
	export class Usage {
	    promptTokens: number;
	    completionTokens: number;
	    totalTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.totalTokens = source["totalTokens"];
	    }
	}
	export class Part {
	    kind: string;
	    mimeType?: string;
	    data?: string;
	    uri?: string;
	    name?: string;
	    title?: string;
	    json?: number[];
	
	    static createFrom(source: any = {}) {
	        return new Part(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.json = source["json"];
	    }
	}
	export class ToolCall {
	    id: string;
	    name: string;
	    arguments: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	    }
	}
	export class Message {
	    id: string;
	    threadId: string;
	    runId?: string;
	    role: string;
	    content: string;
	    reasoning?: string;
	    toolCalls?: ToolCall[];
	    toolCallId?: string;
	    toolName?: string;
	    isError?: boolean;
	    toolState?: string;
	    parts?: Part[];
	    status: string;
	    error?: string;
	    createdAt: number;
	    parentId?: string;
	    branch?: Branch;
	    usage?: Usage;
	    model?: string;
	    attachments?: AttachmentRef[];
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.threadId = source["threadId"];
	        this.runId = source["runId"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.reasoning = source["reasoning"];
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.toolCallId = source["toolCallId"];
	        this.toolName = source["toolName"];
	        this.isError = source["isError"];
	        this.toolState = source["toolState"];
	        this.parts = this.convertValues(source["parts"], Part);
	        this.status = source["status"];
	        this.error = source["error"];
	        this.createdAt = source["createdAt"];
	        this.parentId = source["parentId"];
	        this.branch = this.convertValues(source["branch"], Branch);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.model = source["model"];
	        this.attachments = this.convertValues(source["attachments"], AttachmentRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class PermissionRule {
	    id: string;
	    tool: string;
	    scope: string;
	    pattern?: string;
	    createdAt: number;
	    effect?: string;
	    arg?: string;
	    glob?: string;
	    reason?: string;
	    duration?: string;
	    expiresAt?: number;
	    threadId?: string;
	    turnId?: string;
	    lastUsedAt?: number;
	    uses?: number;
	
	    static createFrom(source: any = {}) {
	        return new PermissionRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.scope = source["scope"];
	        this.pattern = source["pattern"];
	        this.createdAt = source["createdAt"];
	        this.effect = source["effect"];
	        this.arg = source["arg"];
	        this.glob = source["glob"];
	        this.reason = source["reason"];
	        this.duration = source["duration"];
	        this.expiresAt = source["expiresAt"];
	        this.threadId = source["threadId"];
	        this.turnId = source["turnId"];
	        this.lastUsedAt = source["lastUsedAt"];
	        this.uses = source["uses"];
	    }
	}
	export class ThreadOptions {
	    endpointId?: string;
	    model?: string;
	    presetId?: string;
	    tools?: string[];
	    systemPrompt: string;
	
	    static createFrom(source: any = {}) {
	        return new ThreadOptions(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.endpointId = source["endpointId"];
	        this.model = source["model"];
	        this.presetId = source["presetId"];
	        this.tools = source["tools"];
	        this.systemPrompt = source["systemPrompt"];
	    }
	}
	export class Thread {
	    id: string;
	    title: string;
	    pinned: boolean;
	    createdAt: number;
	    updatedAt: number;
	    options: ThreadOptions;
	
	    static createFrom(source: any = {}) {
	        return new Thread(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.pinned = source["pinned"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.options = this.convertValues(source["options"], ThreadOptions);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ThreadUsage {
	    total: Usage;
	    answers: number;
	    unreported: number;
	
	    static createFrom(source: any = {}) {
	        return new ThreadUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total = this.convertValues(source["total"], Usage);
	        this.answers = source["answers"];
	        this.unreported = source["unreported"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace mcp {
	
	export class CompleteRef {
	    type: string;
	    name?: string;
	    uri?: string;
	
	    static createFrom(source: any = {}) {
	        return new CompleteRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.name = source["name"];
	        this.uri = source["uri"];
	    }
	}
	export class Completion {
	    values: string[];
	    total?: number;
	    hasMore: boolean;
	    cut: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Completion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.values = source["values"];
	        this.total = source["total"];
	        this.hasMore = source["hasMore"];
	        this.cut = source["cut"];
	    }
	}
	export class SkippedServer {
	    name: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new SkippedServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.reason = source["reason"];
	    }
	}
	export class ImportSummary {
	    added: string[];
	    skipped: SkippedServer[];
	
	    static createFrom(source: any = {}) {
	        return new ImportSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = source["added"];
	        this.skipped = this.convertValues(source["skipped"], SkippedServer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OfferProblem {
	    server: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new OfferProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.message = source["message"];
	    }
	}
	export class PromptArg {
	    name: string;
	    title?: string;
	    description?: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArg(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class PromptFile {
	    name: string;
	    mimeType: string;
	    data: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new PromptFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.size = source["size"];
	    }
	}
	export class PromptInfo {
	    server: string;
	    serverTitle: string;
	    name: string;
	    title?: string;
	    description?: string;
	    arguments: PromptArg[];
	    completes: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.serverTitle = source["serverTitle"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArg);
	        this.completes = source["completes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptList {
	    prompts: PromptInfo[];
	    problems: OfferProblem[];
	
	    static createFrom(source: any = {}) {
	        return new PromptList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.prompts = this.convertValues(source["prompts"], PromptInfo);
	        this.problems = this.convertValues(source["problems"], OfferProblem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptText {
	    text: string;
	    files: PromptFile[];
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new PromptText(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.files = this.convertValues(source["files"], PromptFile);
	        this.notes = source["notes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TemplateInfo {
	    server: string;
	    uriTemplate: string;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    variables: string[];
	    completes: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TemplateInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.uriTemplate = source["uriTemplate"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.variables = source["variables"];
	        this.completes = source["completes"];
	    }
	}
	export class ResourceInfo {
	    server: string;
	    uri: string;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    size?: number;
	
	    static createFrom(source: any = {}) {
	        return new ResourceInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.size = source["size"];
	    }
	}
	export class ResourceServer {
	    server: string;
	    title: string;
	    resources: ResourceInfo[];
	    templates: TemplateInfo[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.title = source["title"];
	        this.resources = this.convertValues(source["resources"], ResourceInfo);
	        this.templates = this.convertValues(source["templates"], TemplateInfo);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResourceCatalog {
	    servers: ResourceServer[];
	    problems: OfferProblem[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceCatalog(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.servers = this.convertValues(source["servers"], ResourceServer);
	        this.problems = this.convertValues(source["problems"], OfferProblem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResourceFile {
	    uri: string;
	    name: string;
	    mimeType: string;
	    data: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new ResourceFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.size = source["size"];
	    }
	}
	
	export class ResourceRead {
	    files: ResourceFile[];
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceRead(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = this.convertValues(source["files"], ResourceFile);
	        this.notes = source["notes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ServerConfig {
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    cwd?: string;
	    url?: string;
	    headers?: Record<string, string>;
	    type?: string;
	    disabled?: boolean;
	    approval?: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.type = source["type"];
	        this.disabled = source["disabled"];
	        this.approval = source["approval"];
	    }
	}
	export class ToolInfo {
	    name: string;
	    modelName: string;
	    title?: string;
	    description?: string;
	    readOnly: boolean;
	    destructive: boolean;
	    claimsReadOnly?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.modelName = source["modelName"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.readOnly = source["readOnly"];
	        this.destructive = source["destructive"];
	        this.claimsReadOnly = source["claimsReadOnly"];
	    }
	}
	export class ServerStatus {
	    name: string;
	    title?: string;
	    transport: string;
	    status: string;
	    error?: string;
	    restarts?: number;
	    nextRetry?: number;
	    approval?: string;
	    tools: ToolInfo[];
	
	    static createFrom(source: any = {}) {
	        return new ServerStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.transport = source["transport"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.restarts = source["restarts"];
	        this.nextRetry = source["nextRetry"];
	        this.approval = source["approval"];
	        this.tools = this.convertValues(source["tools"], ToolInfo);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	

}

export namespace secrets {
	
	export class KeyStorage {
	    kind: string;
	    detail: string;
	    path?: string;
	
	    static createFrom(source: any = {}) {
	        return new KeyStorage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.detail = source["detail"];
	        this.path = source["path"];
	    }
	}

}

export namespace store {
	
	export class ConversationImport {
	    threads: number;
	    messages: number;
	    alreadyImported: number;
	    skippedMessages: number;
	    emptyConversations: number;
	    threadIds: string[];
	
	    static createFrom(source: any = {}) {
	        return new ConversationImport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.threads = source["threads"];
	        this.messages = source["messages"];
	        this.alreadyImported = source["alreadyImported"];
	        this.skippedMessages = source["skippedMessages"];
	        this.emptyConversations = source["emptyConversations"];
	        this.threadIds = source["threadIds"];
	    }
	}
	export class LedgerReport {
	    entries: number;
	    ok: boolean;
	    brokenSeq?: number;
	    problem?: string;
	    headHash?: string;
	
	    static createFrom(source: any = {}) {
	        return new LedgerReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = source["entries"];
	        this.ok = source["ok"];
	        this.brokenSeq = source["brokenSeq"];
	        this.problem = source["problem"];
	        this.headHash = source["headHash"];
	    }
	}
	export class SnippetPart {
	    text: string;
	    match: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SnippetPart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.match = source["match"];
	    }
	}
	export class SearchHit {
	    threadId: string;
	    threadTitle: string;
	    messageId: string;
	    role: string;
	    parts: SnippetPart[];
	    createdAt: number;
	    rank: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.threadId = source["threadId"];
	        this.threadTitle = source["threadTitle"];
	        this.messageId = source["messageId"];
	        this.role = source["role"];
	        this.parts = this.convertValues(source["parts"], SnippetPart);
	        this.createdAt = source["createdAt"];
	        this.rank = source["rank"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

