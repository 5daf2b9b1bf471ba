-- Drives `torchtidy lsp` with Neovim's own LSP client (nvim --headless),
-- as a user's editor does: open a file with a bug, wait for the diagnostic,
-- ask for its quick fix, apply it, save, see the diagnostic gone; then the
-- cases the server must survive. Each step writes a line to $LSP_OUT.
--
-- Environment: TORCHTIDY (the binary), LSP_PROJECT (setup.py's project),
-- LSP_OUT (the transcript), LSP_TIMEOUT_MS (per wait).
local out = assert(io.open(os.getenv('LSP_OUT'), 'w'))
local function say(line)
  out:write(line .. '\n')
  out:flush()
end
local project = os.getenv('LSP_PROJECT')
local timeout = tonumber(os.getenv('LSP_TIMEOUT_MS') or '120000')
local severities = { 'error', 'warning', 'information', 'hint' }

-- How many times the server has published diagnostics for each file, so a
-- step waits for the lint it caused, not for what was there before.
local published = {}
local client_id = vim.lsp.start_client({
  name = 'torchtidy',
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      local file = vim.uri_to_fname(result.uri)
      published[file] = (published[file] or 0) + 1
      return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
    ['window/logMessage'] = function(_, result)
      say('log: ' .. result.message:gsub(vim.pesc(project), '<project>'))
    end,
  },
  cmd = { os.getenv('TORCHTIDY'), 'lsp', '-j', '1' },
  root_dir = project,
  on_exit = function(code) say('server exited with ' .. code) end,
})

local function open(file)
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

-- Waits until the server has published for buf after `since` (a count of
-- publishes); says what it published.
local function publishes(buf)
  return published[vim.api.nvim_buf_get_name(buf)] or 0
end
local function await(step, buf, since)
  local ok = vim.wait(timeout, function()
    return publishes(buf) > since
  end, 50)
  say(step .. ': ' .. (ok and 'published' or 'TIMED OUT'))
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    say(string.format('  %d:%d %s [%s] %s', d.lnum + 1, d.col + 1,
      severities[d.severity], d.code or lsp.code or '', d.message))
    for _, related in ipairs(lsp.relatedInformation or {}) do
      say(string.format('    note %s:%d: %s',
        vim.fn.fnamemodify(vim.uri_to_fname(related.location.uri), ':t'),
        related.location.range.start.line + 1, related.message))
    end
    if lsp.codeDescription then
      say('    page ' .. vim.fn.fnamemodify(
        vim.uri_to_fname(lsp.codeDescription.href), ':t'))
    end
  end
  return ok
end

-- Whether a torchtidy process linting file runs now (Linux's /proc: the
-- lint is a child process whose arguments name the file).
local function lint_is_running(file)
  for _, path in ipairs(vim.fn.glob('/proc/[0-9]*/cmdline', false, true)) do
    local handle = io.open(path, 'rb')
    if handle then
      local cmdline = handle:read('*a') or ''
      handle:close()
      local arguments = vim.split(cmdline, '\0', { plain = true })
      if vim.tbl_contains(arguments, '--format=json') and
          vim.tbl_contains(arguments, file) then
        return true
      end
    end
  end
  return false
end

local function client_alive()
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and not client.is_stopped()
end

-- A Lua error ends the transcript with it, and Neovim with it, rather than
-- leaving the editor waiting.
local ok, err = pcall(function()
  -- 1. A file with a bug: its finding, with the note and the page.
  local train = project .. '/src/train.cpp'
  local buf = open(train)
  await('open train.cpp', buf, 0)

  -- 2. The quick fix on the finding's line, applied as the editor does.
  local diagnostic = vim.diagnostic.get(buf)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = diagnostic.lnum, character = 0 },
      ['end'] = { line = diagnostic.lnum, character = 0 },
    },
    -- What Neovim's own code_action() sends: the line's diagnostics.
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf,
      diagnostic.lnum) },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction',
    params, timeout) or {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      say('code action: ' .. action.title .. ' (' .. (action.kind or '') .. ')')
      vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    end
  end
  -- The buffer now differs from what the lint read: no fix is offered on
  -- it until it is saved (its positions would be wrong).
  params.context.diagnostics = {}
  local again = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction',
    params, timeout) or {}
  local offered = 0
  for _, response in pairs(again) do
    offered = offered + #(response.result or {})
  end
  say('code actions on the edited buffer: ' .. offered)
  say('line after the fix: ' ..
    vim.trim(vim.api.nvim_buf_get_lines(buf, diagnostic.lnum,
      diagnostic.lnum + 1, false)[1]))

  -- 3. Saved: linted again, the finding is gone.
  local before = publishes(buf)
  vim.cmd('silent write')
  await('save train.cpp', buf, before)

  -- 4. A file clang cannot parse: one diagnostic saying so.
  local broken = open(project .. '/src/broken.cpp')
  await('open broken.cpp', broken, 0)

  -- 5. A header, which no compile command compiles: nothing published (the
  -- reason goes to the client's log), and the server carries on.
  local header = open(project .. '/src/helpers.h')
  vim.wait(3000, function() return false end, 100)
  say('open helpers.h: ' .. #vim.diagnostic.get(header) .. ' diagnostic(s)')

  -- 6. Saved again while its lint runs: the stale lint is ended, and only
  -- the lint of the saved file publishes.
  -- The save waits until the lint the open started is a running process
  -- (its command line names the file): saved sooner, the server would
  -- replace the waiting lint, which is right but not this case.
  local slow = open(project .. '/src/slow.cpp')
  local started = vim.wait(timeout, function()
    return lint_is_running(project .. '/src/slow.cpp')
  end, 20)
  if not started then
    say('the lint of slow.cpp never started')
  end
  vim.cmd('silent write')
  await('open and save slow.cpp', slow, 0)
  vim.wait(3000, function() return false end, 100)
  say('slow.cpp: ' .. publishes(slow) .. ' publish(es)')

  -- 7. The database deleted: saving says why nothing was checked.
  os.rename(project .. '/build/compile_commands.json',
    project .. '/build/compile_commands.json.gone')
  vim.api.nvim_set_current_buf(buf)
  before = publishes(buf)
  vim.cmd('silent write')
  await('save without a database', buf, before)

  say('server alive: ' .. tostring(client_alive()))
  vim.lsp.stop_client(client_id)
  vim.wait(timeout, function() return not client_alive() end, 50)
end)
if not ok then
  say('error: ' .. tostring(err))
end
out:close()
vim.cmd('qall!')
