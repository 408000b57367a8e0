Unicode true

####
## Juncture's Windows installer. Based on the project.nsi Wails v2 generates
## (`wails build --nsis`), changed for a per-user install:
## - installs to %LOCALAPPDATA%\Programs\Juncture with no administrator
##   prompt, a Start-menu entry, the juncture:// URL scheme (HKCU);
## - the uninstaller keeps the person's conversations and settings
##   (%LOCALAPPDATA%\juncture) unless they tick "Remove my conversations
##   and settings" on its components page;
## - the WebView2 runtime is installed, when missing, by the bootstrapper
##   Wails ships (wails.webview2runtime, tmp\MicrosoftEdgeWebview2Setup.exe).
##
## scripts/dist.sh stages this file next to wails_tools.nsh (rendered from
## Wails' template by `build/pack nsis`) and runs Debian's makensis:
##   makensis -DARG_WAILS_AMD64_BINARY=... -DOUTFILE=... project.nsi
####
!define INFO_PROJECTNAME    "juncture"
!define INFO_PRODUCTNAME    "Juncture"
!define PRODUCT_EXECUTABLE  "juncture.exe"
!define UNINST_KEY_NAME     "Juncture"
!define REQUEST_EXECUTION_LEVEL "user"
!define WAILS_INSTALL_SCOPE "user"

!include "wails_tools.nsh"

# The version information for this two must consist of 4 parts
VIProductVersion "${INFO_PRODUCTVERSION}.0"
VIFileVersion    "${INFO_PRODUCTVERSION}.0"

VIAddVersionKey "CompanyName"     "${INFO_COMPANYNAME}"
VIAddVersionKey "FileDescription" "${INFO_PRODUCTNAME} Installer"
VIAddVersionKey "ProductVersion"  "${INFO_PRODUCTVERSION}"
VIAddVersionKey "FileVersion"     "${INFO_PRODUCTVERSION}"
VIAddVersionKey "LegalCopyright"  "${INFO_COPYRIGHT}"
VIAddVersionKey "ProductName"     "${INFO_PRODUCTNAME}"

# Enable HiDPI support. https://nsis.sourceforge.io/Reference/ManifestDPIAware
ManifestDPIAware true

!include "MUI2.nsh"

!define MUI_ICON "../icon.ico"
!define MUI_UNICON "../icon.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${PRODUCT_EXECUTABLE}"
!define MUI_FINISHPAGE_RUN_TEXT "Open Juncture"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!define MUI_COMPONENTSPAGE_TEXT_TOP "Juncture's program files are removed. Your conversations and settings stay unless you tick the box below."
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

## Signing (a code-signing certificate is not part of this repository):
#!uninstfinalize 'signtool sign /fd sha256 "%1"'
#!finalize 'signtool sign /fd sha256 "%1"'

Name "${INFO_PRODUCTNAME}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${INFO_PRODUCTNAME}"
ShowInstDetails show

Function .onInit
   !insertmacro wails.checkArchitecture
FunctionEnd

Section
    !insertmacro wails.setShellContext

    !insertmacro wails.webview2runtime

    SetOutPath $INSTDIR

    !insertmacro wails.files

    CreateShortcut "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk" "$INSTDIR\${PRODUCT_EXECUTABLE}"

    !insertmacro wails.associateFiles
    !insertmacro wails.associateCustomProtocols

    !insertmacro wails.writeUninstaller
SectionEnd

Section "un.Juncture (the program)" SecUnProgram
    SectionIn RO
    !insertmacro wails.setShellContext

    Delete "$INSTDIR\${PRODUCT_EXECUTABLE}"
    Delete "$INSTDIR\${PRODUCT_EXECUTABLE}.old"
    Delete "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk"

    !insertmacro wails.unassociateFiles
    !insertmacro wails.unassociateCustomProtocols

    !insertmacro wails.deleteUninstaller
    RMDir $INSTDIR
SectionEnd

# Off unless ticked (/o): the conversations database, settings, the key
# fallback file (%LOCALAPPDATA%\juncture) and the window's WebView2 data.
Section /o "un.Remove my conversations and settings" SecUnData
    !insertmacro wails.setShellContext
    RMDir /r "$LOCALAPPDATA\juncture"
    RMDir /r "$APPDATA\${PRODUCT_EXECUTABLE}"
SectionEnd
