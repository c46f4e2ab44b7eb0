<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ArchiveLibrary</name>
    <message>
        <source>Bundles (.nb2session) need libarchive %1, which could not be loaded (%2). Install the package libarchive13 and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has no function %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayPlan</name>
    <message>
        <source>There is no frame %1 in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 is in the trash; restore it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 is not on the path to %2: a replay runs along one branch, from a frame to one of its descendants (FROM..TO, FROM first).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 is %2: a replay repeats finished steps only; pick a range of done frames.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>style picture not repeated: sent as a plain edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>region not repeated: sent as a whole-picture edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1..%2 has no prompt to replay (imported pictures have none).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 has no finished picture to replay onto; pick a done frame.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder %1 has no pictures (jpg, png, webp, gif).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: name a picture or a folder of pictures.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More than %1 pictures: replay a smaller folder (or a few at a time).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name at least one picture or folder to replay onto.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayQueue</name>
    <message>
        <source>The replay record is damaged (%1); start the replay again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay record was written by another version of nb2lite.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link; the replay record is not written through it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the replay record %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a replay id (8 hex characters).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link; it is not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no replay %1 in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayRunner</name>
    <message>
        <source>No session is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay %1 is %2; there is nothing to resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: running steps finish, no new step is sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 is gone from the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited (429): the queue waits %1 s, as the server asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: the API quota for this model is 0 (the server said: %1). Image models have no free tier: enable billing for the key&apos;s project, or use another key, then resume the replay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) failed or were cancelled; resume the replay to send them again.</source>
        <translation>
            <numerusform>%n step failed or was cancelled; resume the replay to send it again.</numerusform>
            <numerusform>%n steps failed or were cancelled; resume the replay to send them again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>demo backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the built-in demo backend even when a key is set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iterative image editing over the Gemini Interactions API.

Without an API key (GEMINI_API_KEY, GOOGLE_API_KEY, the key saved in Settings, or ~/gemini.key) the app runs on a built-in offline demo backend that draws synthetic images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A session folder to open (created if missing), a .nb2session bundle to unpack and open, and/or image files to import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Open the Bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writes a PNG thumbnail of an NB2Lite session bundle (.nb2session): the image of its last finished frame, read from the bundle without unpacking it. File managers run it through the installed .thumbnailer entry.

Exit status: 0 on success, 1 when the bundle cannot be previewed or the thumbnail cannot be written, 2 on a usage error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The .nb2session bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG file to write.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest edge in pixels (default 256; never enlarged).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected INPUT OUTPUT [SIZE]; see --help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the size must be a number from 1 to 4096, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link; not writing through it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite-studio: cannot open a window: no display could be opened (DISPLAY=%1, platform %2). Start it in a desktop session, or under xvfb-run when there is no screen. Nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo backend could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ActionManager</name>
    <message>
        <source>&amp;New Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new, empty session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a session folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Session &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this session to a new folder and continue there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a picture from a file as a new frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the session&apos;s history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key, model, endpoint and session options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit NB2Lite Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo the last local change: delete, restore, rename, star, note (Ctrl+Z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo the change undone last (Ctrl+Shift+Z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected frame&apos;s image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the picture on the clipboard as a new frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected frame and what follows it to the trash (undoable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete &amp;Branch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the frames only this branch has to the trash (undoable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;tar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark or unmark the selected frame as a favourite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the selected frame a title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit &amp;Note…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach a note to the selected frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompt: generate, edit or branch as the button says</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a fresh image instead of editing the selected frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Focus Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the keyboard focus to the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the selected frame&apos;s request again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the selected frame&apos;s request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-&amp;anchor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the parent&apos;s stored pixels instead of its expired server id, with the same prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare with Parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the selected frame with its parent: side by side, swipe or difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the window full screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List every keyboard shortcut of the window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Diagnostics…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key status, endpoint, versions and a connection test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About NB2Lite Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version and credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uns&amp;tar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;play Onto…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompts of the range chosen on the timeline (Shift+click) again, onto a frame or onto pictures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pan (No Selection Tool)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag to pan the picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rectangle Select</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag a rectangle to select; Shift adds, Ctrl subtracts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Ellipse Select</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag an ellipse to select; Shift adds, Ctrl subtracts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lasso Select</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw around an area to select it; Shift adds, Ctrl subtracts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Brush Select</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paint the selection with a round brush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;raser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paint to remove from the selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brush S&amp;maller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the brush and eraser smaller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brush L&amp;arger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the brush and eraser larger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Invert Selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select what is not selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Deselect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the selection</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::BannerWidget</name>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss this message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::BundleOpener</name>
    <message>
        <source>Choose a folder to unpack the session into.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a symbolic link; choose a new folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a file; choose a new folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not empty; choose a new folder, or an empty one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Session Bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a session bundle. It is unpacked into a new folder, which then opens as a session; the bundle itself is not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpack into:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpack and Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpack the Session Into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The unpacked session in %1 could not be opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::BundlePreview</name>
    <message>
        <source>The bundle %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not an NB2Lite session bundle: it has no manifest.json.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is incomplete: %1 is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is damaged: %1 does not match its checksum.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the bundle is not a readable image: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the bundle is %2 x %3 pixels, too large to preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the bundle cannot be decoded: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a readable NB2Lite bundle: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds more than %2 entries; it is not a session bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is not a plain file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is too large (%2 bytes; the limit is %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is larger than %2 bytes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is damaged: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no entry &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle&apos;s manifest.json is not valid JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle&apos;s manifest.json is not an NB2Lite session manifest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle has no finished frame with an image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The manifest names an unsafe image path &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::CanvasView</name>
    <message>
        <source>Draft — waiting for the final image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No image selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image canvas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the selected image. Scroll to zoom, drag to pan, double-click to switch between fit and 100 %.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom in (Ctrl++)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+−)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit the whole image in the view (Ctrl+0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actual Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the image at 100 %: one image pixel per screen pixel (Ctrl+1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <extracomment>zoom level as a percentage, e.g. &quot;35 %&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit · %1</source>
        <extracomment>the view fits the image; %1 is the zoom level</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::CompareView</name>
    <message>
        <source>Swipe comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag the divider, or press Left and Right, to reveal one image over the other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side by Side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show both images next to each other, zoomed and panned together</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Swipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lay one image over the other and drag the divider between them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show where the images differ: black is identical, bright is changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Amplify ×4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Multiply differences by four so that small changes become visible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Amplify differences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the difference…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose two frames to compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag the divider, or use Left and Right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The images are identical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of pixels changed · mean difference %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sizes differ (%1×%2 vs %3×%4): the right image was scaled to the left&apos;s size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the drift heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No drift heatmap: it is measured for an edit against its parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw ↔ composite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the image the server sent with the composite the app stored (your protected pixels put back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the raw server image with the composite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lay the drift heatmap over the edited image: red to yellow is where the edit changed it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ContactSheet</name>
    <message>
        <source>(failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame #%1: the image could not be decoded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There are no frames to put on a contact sheet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 frames do not fit on one contact sheet (at most %2); choose a branch or some frames.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contact sheet could not be encoded as PNG.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::DiagnosticsDialog</name>
    <message>
        <source>Diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server for an interaction that cannot exist: a “not found” answer proves the endpoint is reachable and the key is accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not tested yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this information as text, for a bug report (the key stays masked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered in %1 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not set — using the built-in demo backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set (%1), from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo (built-in fake server; images are synthetic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini Interactions API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (learned from the server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (built-in default, not yet confirmed by the server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NB2Lite Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenSSL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NB2Lite Studio diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected — the server answered and accepted the key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected — the server answered (HTTP %1) and accepted the key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server rejected the key. Check it in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected, but the key is rate limited right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server could not be reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secure connection failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection test failed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::DriftWatch</name>
    <message>
        <source>Could not measure how much %1 changed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outside your selection the model changed %1 % of the image for %2; your pixels were put back, but the server continues from its own version. Select more tightly or protect what must stay?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model changed %1 % of the image for %2; protect what must stay?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show changes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::Export</name>
    <message>
        <source>No branch or frame named &quot;%1&quot; in this session. Branches: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No frames were selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No frame with id &quot;%1&quot; in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists and is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 is not empty; choose a new or empty folder so that nothing in it is overwritten.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aspect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the parent&apos;s server id was gone, so its stored pixels were sent instead; continuity may differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link; an export never writes through a link. Choose a new or empty folder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ExportDialog</name>
    <message>
        <source>Export Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What kind of export to make</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML history (folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML history (single file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session bundle (.nb2session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact sheet (PNG)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames (image files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every branch of the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current branch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the output location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where the export is saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strip prompts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave prompts and the model&apos;s text out of the export and of the images&apos; provenance record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strip ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave frame ids, interaction ids and the parent image hash out. Without an interaction id an imported image cannot continue its chain on the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include failed turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy images (instead of hard links)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy images instead of hard-linking them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the export carries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fields written by the export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exactly the fields this export will write, for the frame named above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export in progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the export; the dialog stays open and shows the result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the dialog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where to save the export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a full path for the export, e.g. %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file named %1 exists; this format writes a folder. Choose another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 is not empty. Choose a new or empty folder so the export does not mix with other files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder; this format writes one file. Choose a file name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chosen frames include nothing to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder with index.html and the images. Opens offline in any browser.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One self-contained .html file with the images inline, easy to send.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole session, lossless: every image byte-identical. NB2Lite and the CLI can open it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One PNG with the frames in order and short captions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pictures as files with readable names (03-add-a-lantern.jpg), each carrying its provenance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole session (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current branch (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected frames (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle always holds the whole session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No current frame: select a frame in the timeline first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current frame and its ancestors, root first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No frames are selected in the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the frames selected in the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle always holds the whole session, so it can be opened again without loss.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle is a lossless copy of the session: nothing is stripped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact sheet captions carry no ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show turns that failed, with their error message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the HTML history and the contact sheet can show failed turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the image files. Hard links save space, but editing an exported image in place would also change the session&apos;s original.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the HTML folder can hard-link images; other formats always write new files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported here. Choose a new name to export again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file with this name exists and will be replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new folder is created for the export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One file is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder to create for the export (new or empty)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file to write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provenance record written into each image, shown for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provenance record written into each image:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text the page shows for each frame, shown for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text the page shows for each frame:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption under each picture, shown for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption under each picture:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything in the session, exactly as stored:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manifest and journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all frames, prompts, ids and parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 files, byte-identical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no frame with an image in this scope)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompts and model text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame id, interaction id, parent image hash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame and interaction ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written as a PNG iTXt chunk or JPEG XMP packet. Never the API key or a path on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The images are exported exactly as stored, without an added provenance record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sheet is a new PNG without a provenance record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle is lossless, so nothing can be stripped. Never the API key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left out: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export to a New Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML file (*.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NB2Lite session bundle (*.nb2session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export to File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1 to %2 in %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in Browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the exported page in your web browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the contact sheet in your image viewer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the folder with the exported files</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s)</source>
        <translation>
            <numerusform>%n frame</numerusform>
            <numerusform>%n frames</numerusform>
        </translation>
    </message>
    <message>
        <source>cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strip cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the estimated cost (per frame and the total) out of the web page</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::Exporter</name>
    <message>
        <source>No output path was given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--single-file only applies to the html format.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle always holds the whole session; --branch and --frames do not apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle is a lossless copy of the session; --strip-prompts and --strip-ids do not apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chosen scope has no frames to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown export format.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::FindBar</name>
    <message>
        <source>Find in prompts and titles (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only starred frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n frame(s)</source>
        <translation>
            <numerusform>%1 of %n frame</numerusform>
            <numerusform>%1 of %n frames</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>nb2::FrameEditor</name>
    <message>
        <source>Moved %1 to the trash. Undo (Ctrl+Z) brings it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Moved the branch (%n frame(s)) to the trash. Undo brings it back.</source>
        <translation>
            <numerusform>Moved the branch (%n frame) to the trash. Undo brings it back.</numerusform>
            <numerusform>Moved the branch (%n frames) to the trash. Undo brings it back.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rename Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title of %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undone: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redone: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::FrameSelection</name>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the frame</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::FramesExporter</name>
    <message>
        <source>None of the chosen frames has an image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame #%1 is neither PNG nor JPEG; it was copied without a provenance record.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::HtmlCard</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Took</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interaction id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-anchored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(prompt not exported)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no prompt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost (estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total cost (estimate): %1 for the frames on this page with known usage (%2 of %3), prices as of %4%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unknown date</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::HtmlExporter</name>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s)</source>
        <translation>
            <numerusform>%n frame</numerusform>
            <numerusform>%n frames</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed turn(s)</source>
        <translation>
            <numerusform>%n failed turn</numerusform>
            <numerusform>%n failed turns</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n branch(es)</source>
        <translation>
            <numerusform>%n branch</numerusform>
            <numerusform>%n branches</numerusform>
        </translation>
    </message>
    <message>
        <source>exported %1 with NB2Lite %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a picture to see it full size. Images are the session&apos;s original files, unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed — no image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forks from #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>took %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-anchored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ImageStage</name>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Describe an image in the Prompt panel and press Generate — or drop or paste a picture here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft from the model&apos;s thinking — the final image of %1 is on its way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image of %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working on %1 — showing the frame it starts from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no image (%2) — showing the frame it started from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to compare: both frames need an image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (parent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the image of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is selected.
Select a frame in the timeline to show it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 as the server sent it (raw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 as stored (composite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The raw image of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The drift heatmap of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ImportCheck</name>
    <message>
        <source>“%1” does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a folder, not an image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” cannot be used as an image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dropped data is not an image (PNG, JPEG, WebP, GIF, BMP or TIFF).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not keep the pasted image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ImportController</name>
    <message>
        <source>Cannot create a temporary folder for the pasted image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pasted image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only local files can be imported (%1 is on the web). Save the picture first, then drop the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The clipboard holds no picture to import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.gif *.bmp *.tif *.tiff);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session is open. Use File → New Session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the picture…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” was not imported: the session changed while it was being copied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the Chain?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” was exported by NB2Lite and records where it came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;table&gt;%1&lt;/table&gt;&lt;p&gt;Continue the chain: edits send the recorded interaction id, so the model keeps its context. If the server no longer has it, the picture&apos;s pixels are sent instead (re-anchored).&lt;/p&gt;&lt;p&gt;Start from the pixels: a fresh chain from this picture.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the Chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from the Pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Imported %n picture(s). Describe a change and press Edit this frame.</source>
        <translation>
            <numerusform>Imported %n picture. Describe a change and press Edit this frame.</numerusform>
            <numerusform>Imported %n pictures. Describe a change and press Edit this frame.</numerusform>
        </translation>
    </message>
    <message>
        <source>Style reference not used: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style reference set: the next edit restyles the selected frame after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Imported %n picture(s).</source>
        <translation>
            <numerusform>Imported %n picture.</numerusform>
            <numerusform>Imported %n pictures.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Could not import %n file(s): %1 %2</source>
        <translation>
            <numerusform>Could not import %n file: %1 %2</numerusform>
            <numerusform>Could not import %n files: %1 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot create a temporary folder for the downscaled picture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Downscaling %n picture(s) to the model&apos;s input size…</source>
        <translation>
            <numerusform>Downscaling %n picture to the model&apos;s input size…</numerusform>
            <numerusform>Downscaling %n pictures to the model&apos;s input size…</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” could not be downscaled: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” from %2×%3 to %4×%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downscale and Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Downscaled to the model&apos;s input size: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another session was opened before it was recorded.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::InfoPanel</name>
    <message>
        <source>Generate (new image)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit (continues the server conversation)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local edit (image sent inline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style edit (with a style reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-anchored edit (parent&apos;s pixels sent inline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a frame on the timeline to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aspect ratio:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interaction id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the interaction id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy interaction id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interaction:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id expires:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Came from:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model text:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the image file in its folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show file in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server said: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (nearest supported ratio)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model&apos;s choice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired (the next edit re-sends the image)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (in %2 h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exported by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a %1 frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interaction %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompts: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 × %3 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Star:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled — you stopped it; Retry sends it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this interaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>★ Starred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent:</source>
        <extracomment>the exact prompt text sent to the model (the typed prompt plus the branch&apos;s keep-list)</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep-list:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drift:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selection:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replays:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cleared here (no keep-list from this frame on)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set here:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of the picture changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model changed %1 % outside the selection (before the composite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>protect (the rest was put back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit region (crop sent, pasted back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, feather %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>raw server image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame %1 (its prompt, sent again by a replay)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::KeepListWidget</name>
    <message>
        <source>Keep-list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Constraints sent with every edit of this branch, below your prompt. Branches forked from here inherit them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inherit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop this frame&apos;s own keep-list and use the one of the frames before it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected constraint (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected constraint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a constraint: keep the face, same framing… (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to the keep-list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>applies to edits: select a frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: add what every edit of this branch must keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set on %1, for it and what follows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inherited from %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::KeyStore</name>
    <message>
        <source>No desktop keychain service is available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The desktop keychain is locked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The desktop keychain refused access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This platform has no supported keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Secret Service keyring is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no desktop session bus to reach a keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The desktop keychain failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nowhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the desktop keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain is turned off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is empty; use Remove to delete a stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The desktop keychain did not answer within %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 can be read by other users; run: chmod 600 %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create a file in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot replace %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::LineEdit</name>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the field</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::MainWindow</name>
    <message>
        <source>Open Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a Gemini API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with Selected Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F&amp;rame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo backend: images are synthetic — add a Gemini API key in Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing in the drop is a picture that can be imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests Still Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If you quit now they are cancelled; you can retry them when you come back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Requests and Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep Working</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) still running.</source>
        <translation>
            <numerusform>%n request still running.</numerusform>
            <numerusform>%n requests still running.</numerusform>
        </translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Select</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select Toolbar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ellipse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lasso</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brush</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deselect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the range first: select a frame, then Shift+click another frame of its branch.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::NoticePresenter</name>
    <message>
        <source>The server said: “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::OutputFile</name>
    <message>
        <source>a FIFO (named pipe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a character device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a block device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a socket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot check %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a symbolic link; an export never writes through a link (the file it points to would be overwritten). Nothing was written; choose another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder; this output is one file. Nothing was written; choose a file name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is %2, not a regular file; an export never replaces one, even when told to replace existing files. Nothing was written; choose another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists; nothing was overwritten. Choose another name, or replace it on purpose (nb2lite: --force).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the folder is not writable (%2). Choose another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the disk is full (%2). Free some space and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>creating a temporary file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the file is not open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flushing to disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>moving into place</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::PendingIndicator</name>
    <message numerus="yes">
        <source>%n request(s) running</source>
        <translation>
            <numerusform>%n request running</numerusform>
            <numerusform>%n requests running</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate limited, retrying in %1 s (attempt %2 of %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate limited, retrying in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::PrecisionRunner</name>
    <message>
        <source>No session is open. Open or create a session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no finished image to select from; select a finished frame.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose Edit region or Protect for the selection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selection is empty; select the area first (M, L or B), or clear it (Ctrl+D).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selection was made on a picture of another size; clear it (Ctrl+D) and select again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session was closed before the edit was sent.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::PromptPanel</name>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Describe the image, or what to change…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Describe the image, or what to change. Ctrl+Enter sends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Aspect ratio:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aspect ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Thinking:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much the model thinks before drawing. The choices are the levels the server accepts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a fresh image instead of editing the selected frame (Ctrl+Shift+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edits keep the chain&apos;s aspect ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape of the new image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a new image from the prompt (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit this frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the selected frame as the prompt says (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Branch from here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected frame already has a continuation: this starts a new branch from it (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The style reference image is sent too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variants: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompt as this many independent turns at once, then pick the best (the others are folded, never deleted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Send %n variants</source>
        <translation>
            <numerusform>Send %n variants</numerusform>
            <numerusform>Send %n variants</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Send the prompt as %n independent new images at once (Ctrl+Enter)</source>
        <translation>
            <numerusform>Send the prompt as %n independent new images at once (Ctrl+Enter)</numerusform>
            <numerusform>Send the prompt as %n independent new images at once (Ctrl+Enter)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Send the prompt as %n sibling branches of the selected frame at once: an explicit fork (Ctrl+Enter)</source>
        <translation>
            <numerusform>Send the prompt as %n sibling branches of the selected frame at once: an explicit fork (Ctrl+Enter)</numerusform>
            <numerusform>Send the prompt as %n sibling branches of the selected frame at once: an explicit fork (Ctrl+Enter)</numerusform>
        </translation>
    </message>
    <message>
        <source>Edit region</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit, protect selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Estimated cost: %1 for %n turn(s) (%2)</source>
        <translation>
            <numerusform>Estimated cost: %1 for %n turn (%2)</numerusform>
            <numerusform>Estimated cost: %1 for %n turns (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimated cost: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::Provenance</name>
    <message>
        <source>The provenance record is not valid JSON: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provenance record has no schema version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schema version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>App</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parent image SHA-256</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interaction id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt chain (%1 of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a PNG file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG file is truncated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG file is truncated or damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG file is damaged (IHDR or IEND missing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a JPEG file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG file is truncated before its image data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG file is damaged (marker expected at byte %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG file is truncated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG file has no image data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG file is truncated or damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provenance record is too large for a JPEG segment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provenance can only be written into PNG and JPEG files; this image is neither.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG provenance chunk is compressed or damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PNG provenance chunk is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PNG carries no NB2Lite provenance record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JPEG&apos;s XMP provenance packet is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This JPEG carries no NB2Lite provenance record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only PNG and JPEG files carry provenance records.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replays frame</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ReplayDialog</name>
    <message>
        <source>Replay onto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompts of %1 … %2 again, in order, onto another picture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Onto a &amp;frame (a new branch there):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame to replay onto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame id, or head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Onto &amp;pictures (each imported as a new root):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pictures to replay onto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add &amp;Pictures…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add F&amp;older…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pictures (*.jpg *.jpeg *.png *.webp *.gif)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder of pictures to replay onto</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n turn(s), estimated %1 (%2).</source>
        <translation>
            <numerusform>%n turn, estimated %1 (%2).</numerusform>
            <numerusform>%n turns, estimated %1 (%2).</numerusform>
        </translation>
    </message>
    <message>
        <source>no model set (see Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (set in Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking level for every step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As each step was made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Thinking:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ReplayPanel</name>
    <message>
        <source>Replay &amp;onto…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the range&apos;s prompts again, in order, onto a frame or onto pictures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Onto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a frame, then Shift+click another frame of the same branch to choose the range to replay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Range %1 … %2: %n prompt(s) to replay.</source>
        <translation>
            <numerusform>Range %1 … %2: %n prompt to replay.</numerusform>
            <numerusform>Range %1 … %2: %n prompts to replay.</numerusform>
        </translation>
    </message>
    <message>
        <source>A replay is running; wait for it or cancel it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no unfinished replay in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&amp;Resume unfinished replay (%n)</source>
        <translation>
            <numerusform>&amp;Resume unfinished replay (%n)</numerusform>
            <numerusform>&amp;Resume unfinished replay (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replay running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying: %1 of %2 steps done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: %1 of %2 steps done. Running steps finish; Resume sends the rest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: %1 of %2 steps done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished: %1 of %2 steps done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>importing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The photo is being checked and copied into the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Importing %n photo(s)…</source>
        <translation>
            <numerusform>Importing %n photo…</numerusform>
            <numerusform>Importing %n photos…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>nb2::SelectionChoice</name>
    <message>
        <source>Edit re&amp;gion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the selection changes: it is sent with a margin at full resolution and pasted back with a feathered edge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;rotect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole picture is edited as usual; the selected pixels are then put back exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feather </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feather</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of the soft edge where the edit meets the untouched picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue from the server&apos;s ra&amp;w image (by id)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This frame is a composite, which the server has never seen. By default the next edit sends it inline; checked, the edit continues the server&apos;s own (raw) image by its id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protect: the whole picture is edited; the selection stays exactly as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit region: only the selection changes; the rest stays exactly as it is.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SelectionController</name>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brush </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brush size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size of the selection brush and eraser in image pixels ([ smaller, ] larger)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SessionBundle</name>
    <message>
        <source>The session has no files to bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session file name &quot;%1&quot; cannot go into a bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session file %1 is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start the bundle: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot finish the bundle: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a readable NB2Lite bundle: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle contains an unsafe entry name &quot;%1&quot; (absolute or leaving the folder); nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is not a plain file; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle contains &quot;%1&quot; twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is damaged: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create a folder for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is damaged: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This zip is not an NB2Lite session bundle (no %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle was made by a newer NB2Lite (bundle version %1); update to open it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is incomplete: %1 is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is damaged: %1 does not match its checksum.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle has no manifest.json.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot add %1 to the bundle: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1 into the bundle: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; is larger than %2 bytes; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the session file list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds more than %2 entries; it is not a session bundle. Nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle&apos;s index lists an unsafe path &quot;%1&quot;; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle&apos;s index lists %1 twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle&apos;s index has no valid size or checksum for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle lists %1 at %2 bytes; no session file is larger than %3 bytes. Nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle would unpack to more than %1 bytes; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle holds &quot;%1&quot;, which its index does not list; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; unpacks to %2 bytes, more than the %3 its index lists; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle entry &quot;%1&quot; unpacks to more than the %2 bytes its index lists; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle unpacks to more than %1 bytes; nothing was extracted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the extracted manifest.json: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is refused: its %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SessionController</name>
    <message>
        <source>Rename frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Star frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unstar frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete branch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore from trash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit keep-list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fold frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unfold frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick variant</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SessionManager</name>
    <message>
        <source>Requests are still running in this session; wait for them or cancel them first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the session folder %1. Choose another sessions folder in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an NB2Lite session (it has no manifest.json). Choose a session folder, or an empty folder to start a new session there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuild Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait for the running requests to finish before rebuilding another session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session could not be rebuilt: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilt the session from its journal and images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Session As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists; choose a new name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests are still running; save a copy when they have finished (or cancel them).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session could not be saved before copying: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copying the session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The copy failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved a copy as %1; you are now working in the copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SessionPresenter</name>
    <message>
        <source>%1 was re-anchored: the parent&apos;s id had expired, so its pixels were sent (continuity may differ).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session was changed by another program; the timeline is up to date.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) were interrupted when the app last closed; select one and press Retry to send it again.</source>
        <translation>
            <numerusform>%n request were interrupted when the app last closed; select one and press Retry to send it again.</numerusform>
            <numerusform>%n requests were interrupted when the app last closed; select one and press Retry to send it again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n interrupted request(s) were recovered from the server.</source>
        <translation>
            <numerusform>%n interrupted request were recovered from the server.</numerusform>
            <numerusform>%n interrupted requests were recovered from the server.</numerusform>
        </translation>
    </message>
    <message>
        <source>No Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — NB2Lite Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimated from the frames&apos; token usage and the price table (%1, as of %2). Edit the prices in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to reproduce this branch up to here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the stored key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for a stored key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your Gemini API key. Stored in the desktop keychain, never in the settings file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the field; OK then deletes the stored key from the keychain and ~/gemini.key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 from the environment overrides this. The stored key is used when it is unset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get a key at &lt;a href=&quot;https://aistudio.google.com/apikey&quot;&gt;aistudio.google.com/apikey&lt;/a&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image model every new request uses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty for Google&apos;s endpoint. Plain http is accepted only for this computer (127.0.0.1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v1 (stable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v1beta</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Interactions API version in the request path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paid — server keeps interactions 55 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free — server keeps interactions 1 day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the server keeps interaction ids. Frames whose id has expired are re-anchored from the local image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom retention in days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many days the server keeps interactions for your key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key &amp;tier:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many requests may run at the same time; the rest wait in line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Parallel requests:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default thinking level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The thinking level new prompts start with; the model may accept only some levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default &amp;thinking:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where new sessions are created. Leave empty for the default.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the sessions folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder for new sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the settings and close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close without saving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put every setting except the key back to its default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key: the app runs against the built-in demo backend.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored key will be deleted when you press OK.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, so the key will be saved to %2, readable only by you (mode 0600).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key will be saved in the desktop keychain when you press OK.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored. %1, so a key you enter is saved to %2, readable only by you (mode 0600).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored. Without one the app uses the built-in demo backend.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored in the desktop keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored in %1 (mode 0600). %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored in %1. Press OK to store it in the desktop keychain as well.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste your Gemini API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The desktop keychain did not take the key, so it was saved to %1 instead. Press OK to close.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No desktop keychain service is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a model name, e.g. %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model name “%1” contains characters a model name cannot have.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The base URL “%1” is not a valid http(s) address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sessions folder must be an absolute path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API key contains spaces; paste just the key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1=%2 from the environment overrides this.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost (estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session budget in US dollars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A turn that would take a session&apos;s estimated cost over this is refused before anything is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session &amp;budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input price per million tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>US dollars per million input tokens (prompt and input images)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text and thinking output price per million tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>US dollars per million tokens of text output and thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image output price per million tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>US dollars per million image output tokens (a 1K image is about 1,120 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prices per 1M tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For %1; %2, as of %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model whose prices are shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every model in the price table can be edited; the chosen model is selected first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Prices for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (not in the table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model is not in the table: the first model&apos;s prices are used until you change them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::StyleSlot</name>
    <message>
        <source>Style reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional style reference: drop an image here (or click to choose one). The next edit restyles the frame after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the style reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove style reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style reference: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional style reference: drop an image here (or click to choose one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Style
reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a Style Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.gif *.bmp)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::TimelineDelegate</name>
    <message>
        <source>generate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>style</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>re-anchor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retry in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n % changed</source>
        <comment>drift badge on a timeline card: share of the picture the edit changed</comment>
        <translation>
            <numerusform>%n % changed</numerusform>
            <numerusform>%n % changed</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 folded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::TimelineModel</name>
    <message>
        <source>Frame %1, %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-anchored: sent the parent&apos;s pixels (continuity may differ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server id expired: the next edit re-sends this image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server id expires in %1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1, %2 by an agent: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made by an agent through nb2lite mcp</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::TimelineView</name>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames of the session; left and right follow the chain, up and down switch branches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new branch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>next edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No frames yet. Describe an image in the prompt and press Generate, or drop or paste a picture to start from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel this request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry this request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next request starts a new branch from the selected frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next request continues this chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next request starts a new image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This branch&apos;s own frames: %1 (estimate).
Cost to reproduce this branch (every turn from its root to #%2 again): %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the session…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::TurnDispatcher</name>
    <message>
        <source>The API key was refused. Check it in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not reach the server. Check the network or the base URL in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server did not answer in time. Retry, or try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session is open. Use File → New Session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a prompt first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no finished image to edit yet. Select a finished frame, or press New Image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The style reference applies to edits; select a frame to restyle it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was not sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled %1; Retry sends it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: still rate limited after %n automatic retries. Retry when the quota allows (the server asked to wait %2 s).</source>
        <translation>
            <numerusform>%1: still rate limited after %n automatic retries. Retry when the quota allows (the server asked to wait %2 s).</numerusform>
            <numerusform>%1: still rate limited after %n automatic retries. Retry when the quota allows (the server asked to wait %2 s).</numerusform>
        </translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: rate limited, retrying in %2 s (attempt %3 of %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the server refused the API key from %2. Settings cannot change it: set a valid key in %2 (or unset it to use the key saved in Settings) and restart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the parent&apos;s server id has expired or was deleted. Re-anchor sends the parent&apos;s stored pixels instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-anchor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 The thinking choices now list what the server accepts: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the model answered without an image: “%2”. Rephrase the prompt — it is back in the prompt box — and send again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the edit came back but could not be composited with its parent: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: %1 of %2 used or on its way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Region edits are not available here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selection is still being prepared; the edit is sent in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preparing the selected region…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preparing the protected selection…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::TurnPlanner</name>
    <message>
        <source>&lt;b&gt;New image&lt;/b&gt; — starts a new chain on its own lane.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The style reference applies to edits; select a frame to restyle it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is still being made; you can edit it when it is done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no image (%2). Retry it, or select another frame.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch from %1&lt;/b&gt; — restyled after the style reference, on a new lane (shown dashed on the timeline).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Restyle %1&lt;/b&gt; — after the style reference; both pictures are sent with the prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch from %1&lt;/b&gt; — it already has a continuation; this starts a new lane (shown dashed on the timeline).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Edit %1&lt;/b&gt; — continues its chain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is being composited with its parent; you can edit it in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>continues from your composited image (sent inline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>continues from the server&apos;s raw image by id (not the composite you see)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on a new lane (shown dashed on the timeline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selection is not used by a restyle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch from %1, edit the selected region&lt;/b&gt; — the selection and a margin are sent inline and pasted back with a feathered edge, %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Edit the selected region of %1&lt;/b&gt; — the selection and a margin are sent inline and pasted back with a feathered edge; the rest stays exactly as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the picture is sent with the prompt (local edit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch from %1&lt;/b&gt; — it already has a continuation; %2, %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Edit %1&lt;/b&gt; — %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole picture is edited; the selected pixels are then restored exactly.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::VariantCell</name>
    <message>
        <source>Pick #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this variant: it is starred and the others are folded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variant %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::VariantGrid</name>
    <message numerus="yes">
        <source>&lt;b&gt;%n variants&lt;/b&gt; — %1. Pick one: it is starred, the others are folded (kept in the session; unfold them from the timeline).</source>
        <translation>
            <numerusform>&lt;b&gt;%n variants&lt;/b&gt; — %1. Pick one: it is starred, the others are folded (kept in the session; unfold them from the timeline).</numerusform>
            <numerusform>&lt;b&gt;%n variants&lt;/b&gt; — %1. Pick one: it is starred, the others are folded (kept in the session; unfold them from the timeline).</numerusform>
        </translation>
    </message>
    <message>
        <source>deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>picked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>folded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::VariantsDispatch</name>
    <message numerus="yes">
        <source>%n new images (sibling roots), sent at once</source>
        <translation>
            <numerusform>%n new images (sibling roots), sent at once</numerusform>
            <numerusform>%n new images (sibling roots), sent at once</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>an explicit fork: %n new branches from %1, sent at once</source>
        <translation>
            <numerusform>an explicit fork: %n new branches from %1, sent at once</numerusform>
            <numerusform>an explicit fork: %n new branches from %1, sent at once</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Send %n variants</source>
        <translation>
            <numerusform>Send %n variants</numerusform>
            <numerusform>Send %n variants</numerusform>
        </translation>
    </message>
    <message>
        <source>The variants were not sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Sent %n variants; pick one in the grid when they arrive.</source>
        <translation>
            <numerusform>Sent %n variants; pick one in the grid when they arrive.</numerusform>
            <numerusform>Sent %n variants; pick one in the grid when they arrive.</numerusform>
        </translation>
    </message>
    <message>
        <source>Variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the grid; all variants stay as they are</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picked %1: starred; the other variants are folded (still in the session).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unfold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this frame in full again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw this frame collapsed (it stays in the session)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>nb2::WindowDialogs</name>
    <message>
        <source>The session could not be saved before exporting: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About NB2Lite Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;NB2Lite Studio %1&lt;/h3&gt;&lt;p&gt;Iterative image editing over the Gemini Interactions API (model gemini-3.1-flash-lite-image).&lt;/p&gt;&lt;p&gt;Every frame is kept on disk in the session folder; server ids are a shortcut, not the history.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Key tier changed: this session&apos;s ids now expire %n day(s) after each frame.</source>
        <translation>
            <numerusform>Key tier changed: this session&apos;s ids now expire %n day after each frame.</numerusform>
            <numerusform>Key tier changed: this session&apos;s ids now expire %n days after each frame.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>nb2lite</name>
    <message>
        <source>no command given (one of: %1); see nb2lite --help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; works on a session: nb2lite --session DIR %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no %1 option: a key on the command line leaks into shell history and process lists; set GEMINI_API_KEY or put it in ~/gemini.key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>put %1 after the command: &apos;export&apos; takes %1 N|FRAME, the edit commands take %1 alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown session command &apos;%1&apos; (one of: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (one of: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; did you mean &apos;%1&apos;?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 only applies to %2, not to &apos;%3&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>option %1 takes no value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>option %1 needs a value (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 applies to &apos;%2&apos; only in a session: add --session DIR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not apply to &apos;%2&apos; in a session (leave out --session to use it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 takes a number of milliseconds &gt;= 0, not &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--session needs a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--api-version must be v1 or v1beta, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--timeout takes a number of seconds above 0 (at most a day), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--retention takes paid, free or a number of days (1-3650), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lock-timeout takes 100 to 120000 milliseconds, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown export format &quot;%1&quot; (one of: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--frames needs at least one frame id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too many arguments for &apos;%1&apos; (usage: %2; quote a prompt with spaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too many arguments for &apos;%1&apos; (usage: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing arguments for &apos;%1&apos; (usage: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--demo-latency only applies together with --demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--demo and --base-url exclude each other (--demo serves its own fake API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--stream and --no-stream exclude each other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--json and --ids exclude each other (--json lists the ids too)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the interaction id is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>style-edit needs --style IMAGE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; needs a frame and a prompt: %2 REF PROMPT, or %2 --file IMAGE PROMPT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --file, &apos;%1&apos; takes only the prompt: %1 --file IMAGE PROMPT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export needs --format %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use either --branch or --frames, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completion needs the shell: nb2lite completion bash, or nb2lite completion zsh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no command &apos;%1&apos; (one of: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown option %1 for &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; did you mean %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (see nb2lite help %1; a prompt that starts with &apos;-&apos; goes after &apos;--&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (see nb2lite help %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(with --session) %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(without --session) %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; one of: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite - generate and edit images with gemini-3.1-flash-lite-image (Gemini Interactions API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session commands (a session is a folder: manifest.json, images/, journal.jsonl):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>REF is a frame id, a unique prefix of one, or &apos;head&apos;. Editing a frame that already has a continuation forks a new branch: pass --branch to do it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Options (before or after the command; ignored where they do not apply):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>end of options (for a prompt that starts with &apos;-&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command options (nb2lite help COMMAND lists a command&apos;s own):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  There is deliberately no --api-key option: a key on the command line leaks into shell
  history and process lists. nb2lite reads $GEMINI_API_KEY, then $GOOGLE_API_KEY, then
  the first line of ~/gemini.key (keep it chmod 600). The key is never printed; doctor
  shows its source and at most its last 4 characters.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Options:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global options (accepted here too, ignored where they do not apply): %1. See nb2lite --help for what they do and for the exit statuses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (server said: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Re-run with --reencode to send a re-encoded JPEG copy instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interaction ID: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous interaction ID: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model text: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts: %1 (the request was retried)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Model said: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--demo: built-in offline fake API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>work in the session folder DIR (created on first use): its frames, images and journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use the built-in offline fake API (no key needed); it keeps what it made in the session&apos;s demo/ folder, or in the cache folder, so chains continue across commands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --demo: the fake answers after MS milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API host (default: $GOOGLE_GEMINI_BASE_URL, else https://generativelanguage.googleapis.com); plain http only for loopback addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model (default: $GEMINI_MODEL_NAME, else gemini-3.1-flash-lite-image)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API version (default v1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>print exactly one JSON object on stdout (see &apos;Output&apos; in nb2lite --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>where images are saved (default: $IMAGE_OUTPUT_DIR, else the current folder); session commands keep their images in the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give up on a call after SECONDS in total, retries included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show help (nb2lite COMMAND --help for one command)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show the version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aspect ratio. generate: default 1:1; edit-local: default the ratio nearest the source image; edit: default the parent&apos;s ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thinking level (default low; the server owns the allowed set: when it names the allowed values, nb2lite remembers them per model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>style reference image: its look is applied to the edited image (sent first, then the target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stream the response (progress on stderr); session turns stream by default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>do not stream (a session then learns the interaction id only when the turn ends)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow re-encoding an input image as JPEG when the request would exceed the 20 MB limit (never done without this flag)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overwrite an output that already exists (never done without it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit this local picture instead of a frame (it becomes a new root in the session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit commands: fork a new branch from a frame that already has a continuation (forks are never silent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a title for the imported frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep the picture&apos;s lineage record but start from its pixels instead of its recorded interaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fail instead of re-anchoring when a parent&apos;s server id is gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>how long the server keeps ids: paid (55 days), free (1 day) or a number of days (1-3650)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>how long to wait for another program writing the session (100-120000 ms, default 10000)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>include frames in the trash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>print only the frame ids, one per line (no recovery, no network: for scripts and shell completion)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the kind of output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export: only one branch, by its number (as &apos;log --json&apos; lists them) or any frame on it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export: only these frames (ids or prefixes), as several words or comma-separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leave prompts out of pages, captions and metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leave frame and interaction ids out of pages, captions and metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>html: one .html file with the images inline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leave failed turns out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>copy images, never hard-link them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answer with file paths only, no inline image blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>print the agent skill description and exit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new image from a text prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without --session the image is saved as gen_&lt;unix&gt;_&lt;id8&gt;.&lt;ext&gt; in the output folder; with --session it becomes a new root frame of the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>continue from an earlier image: the server keeps it, you say what changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without --session, ID is an interaction id (saved as edit_...). With --session, REF is a frame: its id, a unique prefix or &apos;head&apos;. Editing a frame that already has a continuation forks a new branch: pass --branch to do that on purpose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit a local picture, sent inline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without --session FILE is sent inline (saved as edit_local_...); with --style the look of STYLE_FILE is applied to FILE (style_edit_...). With --session, edit a frame&apos;s pixels (REF) or a new picture (--file IMAGE); with --style this is a style edit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>apply the look of a style picture to a frame or picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show a stored interaction and save its image if it has one (get_...)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete a stored interaction on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show key status and source, model, base URL, API version, output folder, learned thinking levels, and check that the API is reachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add a local picture to the session as a new root frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the picture&apos;s embedded lineage record (from an nb2lite export) and keeps it with the frame; edits of the frame continue the recorded interaction, re-anchoring from the pixels if the server no longer has it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>send a failed, cancelled or interrupted turn again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redo an edit whose parent&apos;s server id is gone, sending the parent&apos;s stored pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finish what a crash left: fetch known ids, mark the rest interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recreate a broken manifest from the journal and the images (nothing is deleted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show the session&apos;s frames as a graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A chain runs straight down one column; a branch opens one more column where it forks. --json prints the whole graph; --ids only the frame ids.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>write the session&apos;s history as a page, a bundle, a contact sheet or pictures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>html: OUT/index.html + OUT/images (hard-linked or copied); with --single-file OUT is one .html. bundle: OUT.nb2session, the whole session, lossless (open it with open-bundle). sheet: OUT.png, a contact sheet with captions. frames: OUT/01-first-prompt.jpg ..., pictures with their lineage in the metadata. Scope: the whole session (default), --branch N|FRAME, or --frames F [F ...].</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>extract a .nb2session bundle into DIR (new or empty) and check that it opens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>serve the agent bridge (Model Context Protocol) on stdin/stdout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>print the shell completion script for bash or zsh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bash: source &lt;(nb2lite completion bash)   zsh: nb2lite completion zsh &gt; ~/.zfunc/_nb2lite (a folder in $fpath). Installed packages put them where bash-completion and zsh look.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show help for a command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or put the key on the first line of ~/gemini.key (chmod 600); or try --demo for the offline fake API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an API command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot tell the aspect ratio of interaction %1 (it has no readable image); pass --aspect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: aspect ratio %1, kept from interaction %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stream: interaction id %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stream: status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stream: draft image received (%1 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stream: image received (%1 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted interaction %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: the server accepts these thinking levels for %1: %2 (remembered in %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the demo store %1 is a symbolic link, so it is not used: this command&apos;s demo interactions last only as long as the command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the built-in demo server did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>demo (built-in offline fake API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not exist yet; created on first save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT writable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exists, writable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: no API key (set GEMINI_API_KEY or put the key in ~/gemini.key; or try --demo)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not attempted: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK: %1 is reachable and accepted the key (a probe GET of a made-up id answered %2 as expected, %3 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED: the server is reachable but refused the key%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED: %1 is not reachable%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED: unexpected answer from %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set, from %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT SET (looked in GEMINI_API_KEY, GOOGLE_API_KEY, ~/gemini.key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking levels:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learned from the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default; nothing learned yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Levels file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exit status:
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected internal failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bad command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no frame &quot;%1&quot; in this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; matches %2 frames (%3); give more characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the bundle was extracted but does not open as a session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open the session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 written in %2 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no image to save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the output folder %1; choose another with --out or IMAGE_OUTPUT_DIR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2; choose another folder with --out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>writing %1 failed: %2 (nothing was left behind)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> [lineage record]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> [lineage: frame %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> [re-anchored: continuity may differ]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a session (no manifest.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n branch(es), </source>
        <translation>
            <numerusform>%n branch, </numerusform>
            <numerusform>%n branches, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s)</source>
        <translation>
            <numerusform>%n frame</numerusform>
            <numerusform>%n frames</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n interrupted (retry REF to re-send)</source>
        <translation>
            <numerusform>, %n interrupted (retry REF to re-send)</numerusform>
            <numerusform>, %n interrupted (retry REF to re-send)</numerusform>
        </translation>
    </message>
    <message>
        <source>lineage record:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lineage record (%1): plain import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the record has no interaction id: edits of this frame re-anchor from its pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--no-continue: edits of this frame start from its pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edits of this frame continue interaction %1 (re-anchoring from the pixels if the server no longer has it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hint: nb2lite --session %1 reanchor %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hint: nb2lite --session %1 retry %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: frame %1 re-anchored (the parent&apos;s id is gone; its image was sent inline, continuity may differ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>recovery: %n turn(s) fetched with get</source>
        <translation>
            <numerusform>recovery: %n turn fetched with get</numerusform>
            <numerusform>recovery: %n turns fetched with get</numerusform>
        </translation>
    </message>
    <message>
        <source> -- the session can be rebuilt from its journal and images (nothing is deleted): nb2lite --session %1 rebuild</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>session %1: %n frame(s)</source>
        <translation>
            <numerusform>session %1: %n frame</numerusform>
            <numerusform>session %1: %n frames</numerusform>
        </translation>
    </message>
    <message>
        <source>frame %1 already has children; editing it would fork a new branch. Pass --branch to fork on purpose, or edit the branch head (%2, or &apos;head&apos;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a session command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>re-encoded %1 (%2) as JPEG (%3) to fit the 20 MB request limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>using thinking level &apos;%1&apos; (the server does not accept &apos;%2&apos; for %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not create an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aspect ratio %1 (nearest to the %2x%3 source; change it with --aspect)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n marked interrupted (retry to re-send)</source>
        <translation>
            <numerusform>%n marked interrupted (retry to re-send)</numerusform>
            <numerusform>%n marked interrupted (retry to re-send)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Opened the bundle as a session in %1: %n frame(s), </source>
        <translation>
            <numerusform>Opened the bundle as a session in %1: %n frame, </numerusform>
            <numerusform>Opened the bundle as a session in %1: %n frames, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) (checksums verified).</source>
        <translation>
            <numerusform>%n file (checksums verified).</numerusform>
            <numerusform>%n files (checksums verified).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %n frame(s) as %1 to %2</source>
        <translation>
            <numerusform>Exported %n frame as %1 to %2</numerusform>
            <numerusform>Exported %n frames as %1 to %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n image(s) hard-linked, </source>
        <translation>
            <numerusform> (%n image hard-linked, </numerusform>
            <numerusform> (%n images hard-linked, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n copied)</source>
        <translation>
            <numerusform>%n copied)</numerusform>
            <numerusform>%n copied)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n picture(s), each with its provenance record)</source>
        <translation>
            <numerusform> (%n picture, each with its provenance record)</numerusform>
            <numerusform> (%n pictures, each with its provenance record)</numerusform>
        </translation>
    </message>
    <message>
        <source>nb2lite mcp: cannot set up stdout for the protocol
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite mcp: warning: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite mcp: the session %1 cannot be opened: %2 (image tools will say so)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopping: cancelling the calls in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>nb2lite mcp %1: session %2 (%n frame(s)), model %3, %4
</source>
        <translation>
            <numerusform>nb2lite mcp %1: session %2 (%n frame), model %3, %4
</numerusform>
            <numerusform>nb2lite mcp %1: session %2 (%n frames), model %3, %4
</numerusform>
        </translation>
    </message>
    <message>
        <source>demo backend (no key needed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NO API KEY (set GEMINI_API_KEY)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite mcp: turns still running after %1 s; they are marked interrupted on the next open
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite mcp: the session could not be written: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nb2lite mcp: stopped by a signal
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--json prints exactly one JSON object on stdout. The API commands print {ok, path, interaction_id, mime_type, width, height, text, usage, attempts, error: {kind, http_status, message} | null}; a session turn prints the same object, then frame_id, status, session and the whole frame; recover and rebuild {ok, session, frames, recovered, interrupted}; log --json the whole graph; export {ok, format, output, frames, ...}. A failure before any of these prints {ok: false, ..., error}. Progress and notes go to stderr.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>note: %n turn(s) not finished here (still running, or stopped by a crash or a cut connection); nb2lite --session %1 recover fetches what the server has</source>
        <translation>
            <numerusform>note: %n turn not finished here (still running, or stopped by a crash or a cut connection); nb2lite --session %1 recover fetches what the server has</numerusform>
            <numerusform>note: %n turns not finished here (still running, or stopped by a crash or a cut connection); nb2lite --session %1 recover fetches what the server has</numerusform>
        </translation>
    </message>
    <message>
        <source>hint: the server knows this turn (%1): nb2lite --session %2 recover fetches it without sending it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying: attempt %1 of %2 failed (%3: %4); trying again in %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--region takes X,Y,W,H in pixels of the frame (W and H above 0), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--feather takes 0 to 256 pixels, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--mode takes region or protect, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--budget takes an amount in US dollars from 0.01 to 100000 (0: no budget), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--variants takes a number from 1 to %1, not &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use either --region or --mask, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--feather and --mode need a selection: --region X,Y,W,H or --mask FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refuse a turn (nothing is sent) when the session&apos;s estimated cost would go over USD dollars; 0: no budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>send nothing: print the plan (how many turns) and the estimated cost, and whether the budget allows it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>send N (1-8) independent turns at once: for generate N sibling roots, for edit N sibling branches of the frame (the fork is intended)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log: only frames whose prompt or title contains TEXT (any case)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log: only starred frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit only this rectangle of the frame (pixels of the parent); everything else keeps the parent&apos;s exact pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit only where this grey image is white (black is protected); any size, scaled to the frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --region/--mask: width of the soft edge in pixels (default 4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --region/--mask: region (default) sends only the selection&apos;s crop inline and pastes the answer back; protect edits the whole image by id and restores the protected pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show what the session&apos;s turns cost: per frame, per branch, in total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Costs are estimates: the frames&apos; token usage priced with the built-in price table (its date and source are printed). Per branch: the frames only that branch has, and what sending its whole path again would cost. With --budget, what is left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prices (USD per 1M tokens; %1, as of %2):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  %1: input %2, output %3, image output %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (model not in the price table: priced as %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>branches:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>  %1. head %2: %3 own, %4 to reproduce (%n turn(s))</source>
        <translation>
            <numerusform>  %1. head %2: %3 own, %4 to reproduce (%n turn)</numerusform>
            <numerusform>  %1. head %2: %3 own, %4 to reproduce (%n turns)</numerusform>
        </translation>
    </message>
    <message>
        <source>total: %1 (estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>; %n finished turn(s) without usage are not counted</source>
        <translation>
            <numerusform>; %n finished turn without usage are not counted</numerusform>
            <numerusform>; %n finished turns without usage are not counted</numerusform>
        </translation>
    </message>
    <message>
        <source>budget: %1, left: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>dry run, nothing sent: %n turn(s) (%1) on %2, estimated %3 (%4)</source>
        <translation>
            <numerusform>dry run, nothing sent: %n turn (%1) on %2, estimated %3 (%4)</numerusform>
            <numerusform>dry run, nothing sent: %n turns (%1) on %2, estimated %3 (%4)</numerusform>
        </translation>
    </message>
    <message>
        <source>within the budget of %1 (spent so far: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (after %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n frame(s) match</source>
        <translation>
            <numerusform>%1 of %n frame match</numerusform>
            <numerusform>%1 of %n frames match</numerusform>
        </translation>
    </message>
    <message>
        <source>frame %1 has no finished image to select from; pick a done frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not read the image of frame %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--region %1,%2,%3,%4 lies outside frame %5, which is %6x%7 pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--add takes the constraint to keep, e.g. --add &quot;keep the face&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--remove takes the number of a constraint as &apos;keep REF&apos; lists them (1, 2, ...), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep takes one change at a time: --add, --remove, --clear or --inherit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay: the frame the replayed chain starts from (a new branch there); &apos;start&apos; is the frame FROM continued: with --model or --thinking, an old-vs-new comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay: the arguments after the range are pictures or folders of pictures; each is imported as a new root and edited step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay: continue the session&apos;s unfinished replays (or the one named) after a crash, a quit or a quota stop; done steps are kept, nothing is sent twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep: add a constraint to the keep-list in force at the frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep: remove constraint number N (as &apos;keep REF&apos; lists them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep: no keep-list from this frame on (its descendants too)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep: drop the frame&apos;s own keep-list, so its ancestors&apos; applies again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>html: leave the estimated cost (per frame and the total) out of the page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay a chain&apos;s prompts, in order, onto another frame or onto photos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FROM..TO are two frames of one branch (FROM first; both included; imports are skipped). --onto REF: a new branch at REF. --photos FILE|DIR ...: every picture becomes a new root, then is edited step by step (pictures run in parallel, up to the concurrency setting; the steps of one chain in order). --dry-run prints the plan: how many turns and the estimated cost. The whole replay is checked against --budget before anything is sent. A 429 pauses the queue for the server&apos;s retry time; a zero quota stops it. The queue is saved in the session&apos;s replay/ folder: after a crash, Ctrl-C or a stop, &apos;replay --resume&apos; continues it without sending a step twice (nothing resumes on its own). Every replayed frame records the frame it replays (replay_of).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show or change the keep-list of a branch: constraints sent with every edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A keep-list set on a frame is in force for it and every frame after it, until a later frame sets its own; branches forked from it inherit it. Every edit appends it to the prompt as a visible block, and the frame records both texts (prompt and prompt_sent in log --json). Without an option it prints the list in force at REF.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keep-list already has %1 constraints, the most it takes; remove one first (--remove N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no constraint %1 in force at frame %2 (it has %3); see &apos;keep %2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keep-list in force at frame %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep-list cleared at frame %1 (set on %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep-list of frame %1 (set here):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep-list of frame %1 (inherited from %2):</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>replay %1: %2..%3, %n step(s)</source>
        <translation>
            <numerusform>replay %1: %2..%3, %n step</numerusform>
            <numerusform>replay %1: %2..%3, %n steps</numerusform>
        </translation>
    </message>
    <message>
        <source>  onto picture %1 (a new root)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  onto frame %1 (a new branch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n turn(s) on %1, estimated %2 (%3)</source>
        <translation>
            <numerusform>%n turn on %1, estimated %2 (%3)</numerusform>
            <numerusform>%n turns on %1, estimated %2 (%3)</numerusform>
        </translation>
    </message>
    <message>
        <source>replay: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay: %1 step %2/%3 %4 %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay %1 %2: %3 of %4 steps done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay did not finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> -- nb2lite --session %1 replay --resume %2 continues it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dry run, nothing sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay --resume takes at most a replay id, without --onto or --photos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay needs exactly one of --onto REF or --photos FILE|DIR ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay needs a range FROM..TO (two frames of one branch), not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay --onto takes only the range: replay FROM..TO --onto REF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay --photos needs at least one picture or folder after the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no unfinished replay in this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: replay %1 was started with %2; it goes on with %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 is a root: it has no start to replay onto; name a frame with --onto.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image of frame %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>… %n frame(s) …</source>
        <translation>
            <numerusform>… %n frame …</numerusform>
            <numerusform>… %n frames …</numerusform>
        </translation>
    </message>
</context>
</TS>
