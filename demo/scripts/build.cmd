@echo off
rem Builds the inventory service on Windows.
setlocal
call npm ci || exit /b 1
call npx tsc -p . || exit /b 1
echo Build finished.
endlocal
